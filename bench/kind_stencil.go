package bench

func loadStencil(data []byte, name string) (Problem, error) { return nil, errNotYet("Stencil") }

func stencilGenerators() []Generator { return nil }

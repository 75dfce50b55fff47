package bench

func loadStencil(data []byte, name string) (Problem, error) { return nil, errNotYet("stencil") }

func stencilGenerators() []Generator { return nil }

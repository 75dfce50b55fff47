package bench

func loadDLTFlat(data []byte, name string) (Problem, error) { return nil, errNotYet("DLTFlat") }

func loadDLTSingle(data []byte, name string) (Problem, error) { return nil, errNotYet("DLTSingle") }

func loadDLTMulti(data []byte, name string) (Problem, error) { return nil, errNotYet("DLTMulti") }

func dltGenerators() []Generator { return nil }

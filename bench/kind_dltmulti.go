package bench

func loadDLTMulti(data []byte, name string) (Problem, error) { return nil, errNotYet("dlt-multi") }

func dltMultiGenerators() []Generator { return nil }

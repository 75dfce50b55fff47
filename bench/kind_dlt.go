package bench

func loadDLTFlat(data []byte, name string) (Problem, error) { return nil, errNotYet("dlt-flat") }

func loadDLTSingle(data []byte, name string) (Problem, error) { return nil, errNotYet("dlt-single") }

func dltGenerators() []Generator { return nil }

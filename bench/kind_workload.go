package bench

func loadWorkload(data []byte, name string) (Problem, error) { return nil, errNotYet("workload") }

func workloadGenerators() []Generator { return nil }

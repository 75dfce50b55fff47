package bench

func loadWorkload(data []byte, name string) (Problem, error) { return nil, errNotYet("Workload") }

func workloadGenerators() []Generator { return nil }

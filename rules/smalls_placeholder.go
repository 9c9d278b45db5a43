package rules

func smallRules() []*Rule { return nil }

package rules

func secretRules() []*Rule { return nil }

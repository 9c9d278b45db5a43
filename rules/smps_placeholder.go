package rules

func smpRules() []*Rule { return nil }

package rules

func ownershipRules() []*Rule { return nil }

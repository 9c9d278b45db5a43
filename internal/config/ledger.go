package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Ledger configures the checks of `small-hook log`, which compare what
// progress and provenance entries claim with the commits that recorded
// them.
type Ledger struct {
	// ClockSkew is how much later than the commit that recorded it an
	// entry's timestamp may be before the entry counts as recorded before
	// it happened (clocks of different machines disagree a little).
	ClockSkew time.Duration
	// Backfill is how long after an entry's timestamp the commit that
	// recorded it may have been authored before the entry counts as
	// backfilled.
	Backfill time.Duration
	// Identities map the DIDs that provenance entries name to the git
	// identities (e-mail addresses) of the same agents; a DID may have
	// several.
	Identities []DIDIdentity
}

// DIDIdentity says that the agent with DID commits as Email.
type DIDIdentity struct {
	DID   string
	Email string
}

// Emails returns the e-mail addresses the configuration maps did to, or
// none when it does not map it.
func (l Ledger) Emails(did string) []string {
	var out []string
	for _, id := range l.Identities {
		if id.DID == did {
			out = append(out, id.Email)
		}
	}
	return out
}

func defaultLedger() Ledger {
	return Ledger{ClockSkew: 5 * time.Minute, Backfill: 7 * 24 * time.Hour}
}

// ledger reads the ledger section.
func (l loader) ledger(top map[string]any, dst *Ledger) error {
	m, err := l.section(top, "ledger", "clock-skew", "backfill", "identities")
	if err != nil || m == nil {
		return err
	}
	for _, f := range []struct {
		key string
		dst *time.Duration
	}{{"clock-skew", &dst.ClockSkew}, {"backfill", &dst.Backfill}} {
		v, ok := m[f.key]
		if !ok {
			continue
		}
		d, ok := duration(v)
		if !ok {
			return l.fail([]string{"ledger", f.key}, "ledger.%s must be a duration: a whole number and a unit, s, m, h or d (90s, 5m, 36h, 7d)", f.key)
		}
		*f.dst = d
	}
	v, ok := m["identities"]
	if !ok || v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		return l.fail([]string{"ledger", "identities"}, "ledger.identities must be a list of {did: DID, email: ADDRESS}")
	}
	for i, item := range list {
		at := []string{"ledger", "identities", strconv.Itoa(i)}
		id, err := l.didIdentity(at, item)
		if err != nil {
			return err
		}
		dst.Identities = append(dst.Identities, id)
	}
	return nil
}

// didIdentity reads one {did, email} mapping.
func (l loader) didIdentity(at []string, item any) (DIDIdentity, error) {
	m, ok := item.(map[string]any)
	if !ok {
		return DIDIdentity{}, l.fail(at, "%s must be a mapping {did: DID, email: ADDRESS}", where(at))
	}
	if err := l.keys(at, m, "did", "email"); err != nil {
		return DIDIdentity{}, err
	}
	did, _ := m["did"].(string)
	email, _ := m["email"].(string)
	switch {
	case !strings.HasPrefix(did, "did:") || strings.ContainsAny(did, " \t"):
		return DIDIdentity{}, l.fail(append(at, "did"), "%s.did must be a DID (did:key:z6Mk…), as provenance entries name their agent", where(at))
	case email == "" || strings.ContainsAny(email, " \t<>"):
		return DIDIdentity{}, l.fail(append(at, "email"), "%s.email must be the e-mail address the agent commits with (agent@example.com)", where(at))
	}
	return DIDIdentity{DID: did, Email: email}, nil
}

// duration reads a whole number of seconds, minutes, hours or days: "5m",
// "7d".
func duration(v any) (time.Duration, bool) {
	s, ok := v.(string)
	if !ok || len(s) < 2 {
		return 0, false
	}
	units := map[byte]time.Duration{'s': time.Second, 'm': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour}
	unit, known := units[s[len(s)-1]]
	n, err := strconv.ParseInt(s[:len(s)-1], 10, 64)
	if !known || err != nil || s[0] == '+' || s[0] == '-' || n > int64(maxDuration/unit) {
		return 0, false
	}
	return time.Duration(n) * unit, true
}

// maxDuration is the longest duration the configuration may set: a
// hundred years, far beyond any clock skew or backfill.
const maxDuration = 100 * 365 * 24 * time.Hour

// FormatDuration writes d as the configuration would: "5m", "7d".
func FormatDuration(d time.Duration) string {
	for _, u := range []struct {
		unit time.Duration
		name string
	}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}} {
		if d >= u.unit && d%u.unit == 0 {
			return fmt.Sprintf("%d%s", d/u.unit, u.name)
		}
	}
	return fmt.Sprintf("%ds", d/time.Second)
}

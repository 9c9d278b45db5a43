//lint:file-ignore SA1019 gitleaks' own default configuration still uses the deprecated [allowlist] table

package secrets

import "github.com/zricethezav/gitleaks/v8/config"

// joinLegacyAllowlists moves the deprecated single [allowlist] tables
// (global and per rule) into the allowlist lists, as gitleaks does when it
// translates a configuration, so that a merged configuration stays valid.
// A file that has both forms is left as it is: gitleaks refuses it.
func joinLegacyAllowlists(vc *config.ViperConfig) {
	if vc.AllowList != nil && len(vc.Allowlists) == 0 {
		vc.Allowlists, vc.AllowList = append(vc.Allowlists, vc.AllowList), nil
	}
	for i := range vc.Rules {
		r := &vc.Rules[i]
		if r.AllowList != nil && len(r.Allowlists) == 0 {
			r.Allowlists, r.AllowList = append(r.Allowlists, r.AllowList), nil
		}
	}
}

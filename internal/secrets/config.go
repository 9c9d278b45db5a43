package secrets

import (
	"fmt"
	"slices"

	"github.com/pelletier/go-toml/v2"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/regexp"
)

// defaultConfigName names gitleaks' built-in rules in messages.
const defaultConfigName = "gitleaks' default configuration"

// didPattern matches what gitleaks' generic-api-key rule takes for a key in
// a did:key identifier (awp writes one into every artifact): the match
// starts at "key:" right after "did:", and the value is a multibase
// base58btc public key, which is no secret.
const didPattern = `^key:z[1-9A-HJ-NP-Za-km-z]{40,}(?:[\x60'"\s;]|\\[nr])?$`

// fingerprintPattern matches what the generic-api-key rule takes for a key
// in an SSH key fingerprint ("key SHA256:<43 base64 characters>"), which
// small-hook's signature findings name: a hash of a public key, no secret.
const fingerprintPattern = `SHA256:[A-Za-z0-9+/]{43}(?:[\x60'"\s;]|\\[nr])?$`

// loadConfig reads the repository's .gitleaks.toml (nil: gitleaks' default
// rules) and returns it with the default rules merged in when it says
// [extend] useDefault = true. The merge is done here, not by gitleaks:
// gitleaks counts extended loads in a package-level variable that is never
// reset, and from the third load in a process it silently drops the
// default rules.
func loadConfig(opts Options) (*config.ViperConfig, error) {
	if opts.Config == nil {
		return parseConfig([]byte(config.DefaultConfig), defaultConfigName)
	}
	vc, err := parseConfig(opts.Config, opts.ConfigPath)
	if err != nil {
		return nil, err
	}
	if vc.Extend.Path != "" || vc.Extend.URL != "" {
		return nil, fmt.Errorf("%s: [extend] path and url are not supported (small-hook reads only the repository's own file); use useDefault = true", opts.ConfigPath)
	}
	if vc.Extend.UseDefault {
		defaults, err := parseConfig([]byte(config.DefaultConfig), defaultConfigName)
		if err != nil {
			return nil, err
		}
		extend(vc, defaults)
	}
	vc.Extend = config.Extend{}
	return vc, nil
}

// parseConfig decodes a gitleaks configuration without compiling it.
func parseConfig(raw []byte, name string) (*config.ViperConfig, error) {
	vc, err := decode(raw, name)
	if err != nil {
		return nil, err
	}
	joinLegacyAllowlists(vc)
	return vc, nil
}

// decode reads a gitleaks configuration as written.
func decode(raw []byte, name string) (*config.ViperConfig, error) {
	// go-toml decodes gitleaks' configuration into the same structure as
	// gitleaks' own viper and mapstructure path (a test compares them), in
	// a sixth of the time and without viper's global state.
	var vc config.ViperConfig
	if err := toml.Unmarshal(raw, &vc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &vc, nil
}

// extend merges the default rules into vc as gitleaks' [extend] does: a
// default rule is added unless disabled; a rule of vc with the same id
// overrides its description, entropy, secret group, regex and path when
// set, and adds its tags, keywords, allowlists and required rules; the
// global allowlists of both apply.
func extend(vc, defaults *config.ViperConfig) {
	disabled := map[string]bool{}
	for _, id := range vc.Extend.DisabledRules {
		disabled[id] = true
	}
	own := map[string]int{}
	for i, r := range vc.Rules {
		own[r.ID] = i
	}
	for _, base := range defaults.Rules {
		if disabled[base.ID] {
			continue
		}
		i, ok := own[base.ID]
		if !ok {
			vc.Rules = append(vc.Rules, base)
			continue
		}
		r := vc.Rules[i]
		merged := base
		if r.Description != "" {
			merged.Description = r.Description
		}
		if r.Entropy != 0 {
			merged.Entropy = r.Entropy
		}
		if r.SecretGroup != 0 {
			merged.SecretGroup = r.SecretGroup
		}
		if r.Regex != "" {
			merged.Regex = r.Regex
		}
		if r.Path != "" {
			merged.Path = r.Path
		}
		merged.Tags = append(slices.Clip(base.Tags), r.Tags...)
		merged.Keywords = append(slices.Clip(base.Keywords), r.Keywords...)
		merged.Allowlists = append(slices.Clip(base.Allowlists), r.Allowlists...)
		merged.Required = append(slices.Clip(base.Required), r.Required...)
		vc.Rules[i] = merged
	}
	vc.Allowlists = append(vc.Allowlists, defaults.Allowlists...)
}

// compile builds a detector from the rules of vc named in included (with
// the global allowlists and the DID allowlist). A bad regular expression
// makes gitleaks panic: that becomes an error naming the file.
func compile(vc *config.ViperConfig, included map[string]bool, path string) (det *detect.Detector, err error) {
	defer func() {
		if r := recover(); r != nil {
			det, err = nil, fmt.Errorf("%s: invalid gitleaks configuration: %v", path, r)
		}
	}()
	cfg, _, err := translate(vc, included, true, path)
	if err != nil {
		return nil, err
	}
	d := detect.NewDetector(cfg)
	configure(d)
	return d, nil
}

// translate compiles the rules of vc named in included and, with
// allowlists, the allowlists of vc, the DID and the SSH fingerprint
// allowlists; the global allowlists' path patterns that a pathGate
// evaluates come back apart (see withoutPathPatterns), and every file
// scanned must pass that gate first. It may panic on a bad regular
// expression.
func translate(vc *config.ViperConfig, included map[string]bool, allowlists bool, path string) (config.Config, []*config.Allowlist, error) {
	subset := *vc
	subset.Rules = nil
	for _, r := range vc.Rules {
		if included[r.ID] {
			// Translate lower-cases the keywords in place: a copy, since
			// detectors compiled before may be reading them.
			r.Keywords = slices.Clone(r.Keywords)
			subset.Rules = append(subset.Rules, r)
		}
	}
	if !allowlists {
		// joinLegacyAllowlists moved the deprecated [allowlist] table
		// into Allowlists.
		subset.Allowlists = nil
	}
	cfg, err := subset.Translate()
	if err != nil {
		return config.Config{}, nil, fmt.Errorf("%s: invalid gitleaks configuration: %w", path, err)
	}
	if !allowlists {
		return cfg, nil, nil
	}
	var gate []*config.Allowlist
	if cfg.Allowlists, gate, err = withoutPathPatterns(cfg.Allowlists); err != nil {
		return config.Config{}, nil, fmt.Errorf("%s: invalid gitleaks configuration: %w", path, err)
	}
	for _, a := range []*config.Allowlist{{
		Description: "did:key identifiers are public keys",
		RegexTarget: "match",
		Regexes:     []*regexp.Regexp{regexp.MustCompile(didPattern)},
	}, {
		Description: "SSH key fingerprints are hashes of public keys",
		RegexTarget: "match",
		Regexes:     []*regexp.Regexp{regexp.MustCompile(fingerprintPattern)},
	}} {
		if err := a.Validate(); err != nil {
			return config.Config{}, nil, fmt.Errorf("%s allowlist: %w", a.Description, err)
		}
		cfg.Allowlists = append(cfg.Allowlists, a)
	}
	return cfg, gate, nil
}

// Validate loads a gitleaks configuration and compiles every rule and
// allowlist it holds, as a scan that needs them all would: a Scanner
// compiles rules only when content calls for them, so a broken rule would
// otherwise go unnoticed until a scan met its keyword.
func Validate(opts Options) error {
	vc, err := loadConfig(opts)
	if err != nil {
		return err
	}
	all := map[string]bool{}
	for _, r := range vc.Rules {
		all[r.ID] = true
	}
	_, err = compile(vc, all, opts.ConfigPath)
	return err
}

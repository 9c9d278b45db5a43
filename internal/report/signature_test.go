package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// signed is the sample range with each commit's signature status.
func signed() *Result {
	r := sample()
	r.Signatures = []Signature{
		{Commit: "0000000000000000000000000000000000000001", Status: "valid", Format: "ssh", Signer: "alice@example.com", Key: "SHA256:abc", Entry: ".github/allowed_signers:1"},
		{Commit: commit, Status: "unknown-key", Format: "openpgp", Key: "0123456789ABCDEF", Detail: "the OpenPGP key 0123456789ABCDEF is not in .github/signing-keys.asc"},
	}
	return r
}

// TestJSONCarriesSignatures: the statuses follow the summary, and a result
// without them keeps the JSON it always had.
func TestJSONCarriesSignatures(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, signed()); err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, b.Bytes()); err != nil {
		t.Fatal(err)
	}
	want := `"summary":{"errors":2,"warnings":1,"files":2,"commits":3},"signatures":[` +
		`{"commit":"0000000000000000000000000000000000000001","status":"valid","format":"ssh","signer":"alice@example.com","key":"SHA256:abc","entry":".github/allowed_signers:1"},` +
		`{"commit":"` + commit + `","status":"unknown-key","format":"openpgp","key":"0123456789ABCDEF","detail":"the OpenPGP key 0123456789ABCDEF is not in .github/signing-keys.asc"}]}`
	if !strings.HasSuffix(compact.String(), want) {
		t.Errorf("got  %s\nwant it to end with %s", compact.String(), want)
	}
	b.Reset()
	if err := JSON(&b, sample()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "signatures") {
		t.Errorf("without a signature policy the JSON has no signatures:\n%s", b.String())
	}
}

func TestSARIFCarriesSignatures(t *testing.T) {
	var b bytes.Buffer
	if err := SARIF(&b, signed()); err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := sarifSchema(t).Validate(doc); err != nil {
		t.Errorf("SARIF output is invalid: %v", err)
	}
	var log struct {
		Runs []struct {
			Properties struct {
				Signatures []map[string]string
			}
			Results []struct {
				Properties map[string]string
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Properties.Signatures) != 2 || run.Properties.Signatures[0]["signer"] != "alice@example.com" || run.Properties.Signatures[1]["status"] != "unknown-key" || run.Properties.Signatures[1]["signer"] != "" {
		t.Errorf("run signatures %v", run.Properties.Signatures)
	}
	for i, res := range run.Results {
		if res.Properties["commit"] != commit || res.Properties["signature"] != "unknown-key" {
			t.Errorf("result %d properties %v", i, res.Properties)
		}
	}
	b.Reset()
	if err := SARIF(&b, sample()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "signature") {
		t.Errorf("without a signature policy the SARIF has no signatures")
	}
}

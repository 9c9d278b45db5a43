package report

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

func TestJSONMatchesGolden(t *testing.T) {
	cases := []struct {
		golden string
		r      *Result
	}{
		{"../../testdata/report/range.golden.json", sample()},
		{"../../testdata/report/empty.golden.json", &Result{Tool: "small-hook", Version: "v1.2.3", Mode: "staged", Files: 4}},
	}
	for _, tc := range cases {
		t.Run(tc.golden, func(t *testing.T) {
			want, err := os.ReadFile(tc.golden)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := JSON(&b, tc.r); err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Errorf("got\n%s\nwant\n%s", b.String(), want)
			}
		})
	}
}

func TestJSONShape(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, &Result{Tool: "small-hook", Version: "v1", Mode: "staged"}); err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, b.Bytes()); err != nil {
		t.Fatal(err)
	}
	want := `{"tool":"small-hook","version":"v1","mode":"staged","findings":[],"summary":{"errors":0,"warnings":0,"files":0,"commits":0}}`
	if compact.String() != want {
		t.Errorf("got  %s\nwant %s", compact.String(), want)
	}
}

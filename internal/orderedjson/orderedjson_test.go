package orderedjson

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/testskip"
)

// documents are JSON documents whose numbers are written as JavaScript
// writes them (JSON.stringify writes a number's value, Encode its digits).
var documents = []string{
	`{}`, `[]`, `null`, `true`, `"x"`, `12`, `-0.5`,
	`{"b":1,"a":[1,2,{"c":null}],"d":{},"e":[],"f":"é\u2028\u0001\t\"\\/"}`,
	`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo \"hi\" >&2"}]}]},"z":false}`,
	`{"a":1,"a":2,"b":3}`,
	`[[[]],[{}],{"":""}]`,
	`{"cells":[{"cell_type":"code","execution_count":null,"metadata":{},"outputs":[],"source":["x = 1\n","y"]}],"nbformat":4}`,
}

// TestEncodeIsJSONStringify compares Decode and Encode with
// JSON.stringify(JSON.parse(document), null, indent) run by node.
func TestEncodeIsJSONStringify(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		testskip.Skip(t, "node is not installed")
	}
	indents := []string{"", " ", "  ", "\t", "    "}
	// One node process writes every document with every indent, each
	// followed by a NUL.
	input, err := json.Marshal(map[string][]string{"docs": documents, "indents": indents})
	if err != nil {
		t.Fatal(err)
	}
	script := `const {docs, indents} = JSON.parse(require("fs").readFileSync(0, "utf8"));
for (const i of indents) for (const d of docs) process.stdout.write(JSON.stringify(JSON.parse(d), null, i) + "\0");`
	cmd := exec.Command(node, "-e", script)
	cmd.Stdin = bytes.NewReader(input)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	wants := strings.Split(string(out), "\x00")
	for i, indent := range indents {
		for j, doc := range documents {
			want := wants[i*len(documents)+j]
			v, err := Decode([]byte(doc))
			if err != nil {
				t.Fatalf("Decode(%s): %v", doc, err)
			}
			if got := string(v.Encode(indent)); got != want {
				t.Errorf("indent %q, %s:\ngot  %s\nwant %s", indent, doc, got, want)
			}
		}
	}
}

func TestEdit(t *testing.T) {
	v, err := Decode([]byte(`{"b":1,"a":2,"c":3}`))
	if err != nil {
		t.Fatal(err)
	}
	v.Set("a", Str("x"))
	v.Set("d", Arr())
	v.Delete("b")
	if got, want := string(v.Encode("")), `{"a":"x","c":3,"d":[]}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if v.Get("b") != nil || v.Get("c").Text != "3" {
		t.Errorf("Get: %v %v", v.Get("b"), v.Get("c"))
	}
}

func TestDecodeRefusesWhatIsNotOneDocument(t *testing.T) {
	for _, doc := range []string{``, `{`, `{} {}`, `{"a":}`, `[1,]`} {
		if _, err := Decode([]byte(doc)); err == nil {
			t.Errorf("Decode(%q) did not fail", doc)
		}
	}
}

func TestIndent(t *testing.T) {
	for doc, want := range map[string]string{
		"{\n  \"a\": 1\n}":    "  ",
		"{\n\t\"a\": 1\n}":    "\t",
		"{\"a\": 1}":          "",
		"{\n    \"a\": {}\n}": "    ",
	} {
		if got := Indent([]byte(doc)); got != want {
			t.Errorf("Indent(%q) = %q, want %q", doc, got, want)
		}
	}
}

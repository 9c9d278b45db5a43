// Command small-hook guards the git history of AI-agent project state: SMALL
// protocol files under .small/ and Shared Memory Protocol knowledge
// artifacts under artifacts/. See README.md for the rules and integrations.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], newEnv()))
}

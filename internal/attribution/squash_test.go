package attribution

import (
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
)

// squashMessage is GitHub's default squash message for a pull request of a
// human's commit and an agent's: the title, the squashed messages, the
// separator and the co-authors of the squashed commits.
const squashMessage = "Refine the intent and record progress (#12)\n\n* Refine the intent\n\n* Record progress\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n\n---------\n\nCo-authored-by: Claude <noreply@anthropic.com>\n"

func TestGitHubSquash(t *testing.T) {
	github := changes.Identity{Name: "GitHub", Email: "noreply@github.com"}
	human := changes.Identity{Name: "Test Human", Email: "human@example.com"}
	copilot := changes.Identity{Name: "Copilot", Email: "198982749+Copilot@users.noreply.github.com"}
	cases := []struct {
		name              string
		msg               string
		author, committer changes.Identity
		want              Actor
	}{
		{"GitHub's squash of a human's pull request", squashMessage, human, github, Human},
		{"the same message committed by someone else", squashMessage, human, human, Agent},
		{"GitHub's squash of an agent's pull request", squashMessage, copilot, github, Agent},
		{"a co-author without the separator (a web edit)", "Edit intent\n\nCo-authored-by: Claude <noreply@anthropic.com>\n", human, github, Agent},
		{"an agent trailer below the separator", squashMessage + "Assisted-by: claude\n", human, github, Agent},
		{"Small-Actor: agent below the separator", squashMessage + "Small-Actor: agent\n", human, github, Agent},
		{"a real GitHub squash message", "Peder optimization #1 (#848)\n\n* Pedersen\n\n* Add random in bench\n\n---------\n\nCo-authored-by: Amp <amp@ampcode.com>", human, github, Human},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := Decide(Input{Message: c.msg, HasMessage: true, Author: c.author, Committer: c.committer}, config.Attribution{})
			if err != nil || v.Actor != c.want {
				t.Fatalf("Decide = %+v, %v; want %s", v, err, c.want)
			}
		})
	}
}

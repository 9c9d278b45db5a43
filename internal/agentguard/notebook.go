package agentguard

import (
	"regexp"
	"strconv"

	"github.com/small-hook/small-hook/internal/orderedjson"
)

// NotebookEdit is Claude Code's NotebookEdit: it replaces the source of
// the cell CellID names (by its id, or as cell-N, its index), inserts a
// cell after it (at the start when no cell is named) or deletes it, and
// writes the notebook back as JSON.stringify(notebook, null, 1). A code
// cell it replaces loses its outputs and execution count; a cell it
// inserts gets an id the tool makes up, which the guard cannot know (it
// writes a placeholder: nothing small-hook judges reads cell ids).
type NotebookEdit struct {
	CellID, Source string
	// CellType is "code", "markdown" or "" (the cell's own type).
	CellType string
	// Mode is "replace" (the default), "insert" or "delete".
	Mode string
}

// insertedCellID stands for the id the tool gives a cell it inserts.
const insertedCellID = "small-hook-guard-inserted-cell"

var cellIndex = regexp.MustCompile(`^cell-(\d+)$`)

// Apply applies the edit to the notebook before.
func (n NotebookEdit) Apply(before []byte) ([]byte, error) {
	if before == nil {
		return nil, failf("Notebook file does not exist")
	}
	nb, err := orderedjson.Decode(before)
	if err != nil || nb.Kind != orderedjson.Object {
		return nil, failf("Notebook is not valid JSON")
	}
	cells := nb.Get("cells")
	if cells == nil || cells.Kind != orderedjson.Array {
		return nil, failf("Notebook has no cells")
	}
	mode := n.Mode
	if mode == "" {
		mode = "replace"
	}
	at := -1
	if n.CellID != "" {
		if at = findCell(cells.Items, n.CellID); at < 0 {
			return nil, failf("Cell with ID %q not found in notebook", n.CellID)
		}
	}
	switch mode {
	case "insert":
		if n.CellType != "code" && n.CellType != "markdown" {
			return nil, failf("Cell type is required when using edit_mode=insert")
		}
		cell := orderedjson.Obj(
			orderedjson.Member{Key: "cell_type", Value: orderedjson.Str(n.CellType)},
			orderedjson.Member{Key: "id", Value: orderedjson.Str(insertedCellID)},
			orderedjson.Member{Key: "source", Value: orderedjson.Str(n.Source)},
			orderedjson.Member{Key: "metadata", Value: orderedjson.Obj()},
		)
		if n.CellType == "code" {
			cell.Set("execution_count", orderedjson.Value{Kind: orderedjson.Null})
			cell.Set("outputs", orderedjson.Arr())
		}
		cells.Items = append(cells.Items[:at+1:at+1], append([]orderedjson.Value{cell}, cells.Items[at+1:]...)...)
	case "replace", "delete":
		if at < 0 {
			return nil, failf("Cell ID must be specified when not inserting a new cell")
		}
		if mode == "delete" {
			cells.Items = append(cells.Items[:at:at], cells.Items[at+1:]...)
			break
		}
		cell := &cells.Items[at]
		cell.Set("source", orderedjson.Str(n.Source))
		if n.CellType != "" {
			cell.Set("cell_type", orderedjson.Str(n.CellType))
		}
		if t := cell.Get("cell_type"); t != nil && t.Text == "code" {
			cell.Set("execution_count", orderedjson.Value{Kind: orderedjson.Null})
			cell.Set("outputs", orderedjson.Arr())
		}
	default:
		return nil, failf("edit_mode must be replace, insert or delete, not %q", n.Mode)
	}
	return nb.Encode(" "), nil
}

// findCell returns the index of the cell id names, by its id or as
// cell-N; -1 when there is none.
func findCell(cells []orderedjson.Value, id string) int {
	for i, c := range cells {
		if v := c.Get("id"); v != nil && v.Kind == orderedjson.String && v.Text == id {
			return i
		}
	}
	if m := cellIndex.FindStringSubmatch(id); m != nil {
		if i, err := strconv.Atoi(m[1]); err == nil && i < len(cells) {
			return i
		}
	}
	return -1
}

func decodeNotebookEdit(data []byte) (Call, error) {
	var in struct {
		Path     *string `json:"notebook_path"`
		CellID   string  `json:"cell_id"`
		Source   *string `json:"new_source"`
		CellType string  `json:"cell_type"`
		Mode     string  `json:"edit_mode"`
	}
	if err := strictJSON(data, &in); err != nil {
		return Call{}, err
	}
	if err := field("notebook_path", in.Path); err != nil {
		return Call{}, err
	}
	if err := field("new_source", in.Source); err != nil {
		return Call{}, err
	}
	return Call{Path: *in.Path, Change: NotebookEdit{CellID: in.CellID, Source: *in.Source, CellType: in.CellType, Mode: in.Mode}}, nil
}

package p2l_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// refLines runs the reference harness p2lref (bin, from P2L_REF; not part
// of this repository) with args and decodes each line it prints, one JSON
// object per frame, into a T.
func refLines[T any](t testing.TB, bin string, args []string) []T {
	t.Helper()
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatalf("p2lref %s: %v", strings.Join(args, " "), err)
	}
	var lines []T
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("p2lref %s: line %d: %v", strings.Join(args, " "), len(lines)+1, err)
		}
		lines = append(lines, v)
	}
	return lines
}

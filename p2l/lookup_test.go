package p2l

import (
	"slices"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// TestRoleParameters: the lookup answers what the behaviors drive, as the
// reference gathers a role (behavior.rs `roles`: every ROLE record with
// the name, in file order), with our documented MouthForm/vowel id
// fallback only where no record names the role.
func TestRoleParameters(t *testing.T) {
	m := newTestModel(
		param("ParamEyeLOpen", 0, 1, 1),
		param("ParamEyeROpen", 0, 1, 1),
		param("ParamMouthForm", -1, 1, 0),
		param("ParamA", 0, 1, 0),
	)
	m.file.Roles = []p2lrt.Role{
		{Name: "EyeBlink", Parameters: []int{0}},
		{Name: "LipSync", Parameters: []int{7}}, // not a parameter: skipped
		{Name: "EyeBlink", Parameters: []int{1}},
		{Name: "VowelA", Parameters: []int{1}},
	}
	md := &m.Model
	for _, c := range []struct {
		role string
		want []int
	}{
		{"EyeBlink", []int{0, 1}}, // both records, in file order
		{"MouthForm", []int{2}},   // no record: the fallback id
		{"VowelA", []int{1}},      // a record wins over the fallback id ParamA
		{"LipSync", nil},          // only an invalid index
		{"Breath", nil},           // no record, no fallback
	} {
		if got := md.RoleParameters(c.role); !slices.Equal(got, c.want) {
			t.Errorf("RoleParameters(%q) = %v, want %v", c.role, got, c.want)
		}
	}
	var nilModel *Model
	if nilModel.RoleParameters("EyeBlink") != nil {
		t.Error("nil model")
	}
}

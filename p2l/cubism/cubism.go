// Package cubism reads Live2D Cubism models: Load reads a whole bundle (a
// NAME.model3.json and every file it names, from any fs.FS) into a model
// ready to play, ReadMoc lowers a .moc3 alone (docs/CUBISM.md), and Import
// adds Cubism animation files to a p2lrt.File:
// motion3.json (clips, with UserData events, PartOpacity and Model
// Opacity/EyeBlink/LipSync curves and curve fades), physics3.json (including
// Y inputs and outputs), exp3.json (expressions) and pose3.json (pose
// groups). Cubism ids are mapped to the model's parameter and part ids
// (exactly, as the framework compares them).
//
// The importer is as tolerant as the Cubism framework: what the framework
// skips or cannot apply (an id the model lacks, an unknown Blend, a physics
// output on a vertex the strand does not have, Meta counts that disagree
// with the content, a value of the wrong type) is skipped or read as the
// framework reads it, the rest of the file is imported, and each such entry
// is reported as a Warning. Only files that are not JSON objects, and values
// no runtime can bound (a physics rate above p2l.MaxPhysicsFps), are errors.
//
// Defaults follow the framework's parsers: motion and expression fade times
// absent or negative are 1 s, pose fade-in absent or negative 0.5 s, curve
// fades absent "use the clip's" (−1). docs/ANIMATION.md lists every rule.
package cubism

import (
	"path"
	"slices"
	"strings"

	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Error is an import error: File is the file name given to the importer,
// Field the JSON path of the offending value (empty for the whole file).
type Error struct {
	File, Field string
	Msg         string
}

// Error returns "file: field: message" (without the field when it is empty).
func (e *Error) Error() string { return where(e.File, e.Field) + e.Msg }

// Warning is an entry the import skipped or read differently from what the
// file says, as the Cubism framework would: File is the file name given to
// the importer, Field the JSON path of the entry ("Curves[3].Id").
type Warning struct {
	File, Field string
	Msg         string
}

// String returns "file: field: message".
func (w Warning) String() string { return where(w.File, w.Field) + w.Msg }

func where(file, field string) string {
	if field == "" {
		return file + ": "
	}
	return file + ": " + field + ": "
}

// Kind is the kind of a Cubism file.
type Kind int

// The file kinds.
const (
	Unknown Kind = iota
	Motion
	Physics
	Expression
	Pose
)

var kindNames = [...]string{"unknown", "motion3", "physics3", "exp3", "pose3"}

// String returns "motion3", "physics3", "exp3", "pose3" or "unknown".
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return kindNames[0]
	}
	return kindNames[k]
}

var suffixes = [...]struct {
	suffix string
	kind   Kind
}{{".motion3.json", Motion}, {".physics3.json", Physics}, {".exp3.json", Expression}, {".pose3.json", Pose}}

// KindOf tells the kind of a file from its name's suffix (.motion3.json,
// .physics3.json, .exp3.json, .pose3.json), Unknown for any other name.
func KindOf(name string) Kind {
	n := strings.ToLower(name)
	for _, s := range suffixes {
		if strings.HasSuffix(n, s.suffix) {
			return s.kind
		}
	}
	return Unknown
}

// baseName is the file name without directories and the Cubism suffix (or
// ".json"); it becomes the clip or expression id.
func baseName(name string) string {
	b := path.Base(strings.ReplaceAll(name, "\\", "/"))
	l := strings.ToLower(b)
	for _, s := range suffixes {
		if strings.HasSuffix(l, s.suffix) {
			return b[:len(b)-len(s.suffix)]
		}
	}
	if strings.HasSuffix(l, ".json") {
		return b[:len(b)-len(".json")]
	}
	return b
}

// contentKind tells the kind of a parsed file from its members: the
// framework's files have "Curves" (motion3), "PhysicsSettings" (physics3),
// "Groups" (pose3) or "Parameters" (exp3); Unknown when none or several.
func contentKind(root value) Kind {
	k := Unknown
	for _, c := range [...]struct {
		key  string
		kind Kind
	}{{"Curves", Motion}, {"PhysicsSettings", Physics}, {"Parameters", Expression}, {"Groups", Pose}} {
		if root.has(c.key) {
			if k != Unknown {
				return Unknown
			}
			k = c.kind
		}
	}
	return k
}

// checkKind refuses a file whose content is of another kind than the one it
// is imported as (a motion3 given as a physics3, say).
func (r *reader) checkKind(root value, want Kind) error {
	if got := contentKind(root); got != Unknown && got != want {
		return r.errf("", "imported as %s, but the content is a %s file", want, got)
	}
	return nil
}

// File is one Cubism file to import.
type File struct {
	Name string // file name: its base becomes the clip or expression id
	Data []byte
	// Kind is the file's kind; Unknown means: from Name's suffix, or else
	// from the content. The content is checked against the kind either way.
	Kind Kind
}

// Import returns a new file: m with the files added. Motions are appended
// to the clips and expressions to the expressions (one with the same id is
// replaced), a physics file replaces the physics and a pose file the pose.
// group is the clip group of the imported motions. m itself is not changed:
// the result shares m's unchanged records (p2l.NewModel copies them when
// it makes a model of it). The result plays as the Cubism framework does
// (p2l.PlaybackCubism, recorded in its META: float64 clocks, curves, fades
// and physics time), its own clips included; ImportMotion and the other
// single-file functions return records only, which play with the
// playback of the model they are put in.
//
// The warnings list every entry skipped or read as the Cubism framework
// reads it rather than as written (see the package doc). On error the file
// is nil.
func Import(m *p2lrt.File, group string, files ...File) (*p2lrt.File, []Warning, error) {
	if m == nil {
		return nil, nil, &Error{Msg: "no model to import into"}
	}
	ids := newIDs(m)
	clips := slices.Clone(m.Clips)
	exprs := slices.Clone(m.Expressions)
	phys, pose := m.Physics, m.Pose
	var warns []Warning
	for _, f := range files {
		r := &reader{file: f.Name}
		root, err := r.parse(f.Data)
		if err != nil {
			return nil, warns, err
		}
		kind := f.Kind
		if kind == Unknown {
			kind = KindOf(f.Name)
		}
		if kind == Unknown {
			kind = contentKind(root)
		}
		if kind == Unknown {
			return nil, warns, r.errf("", "neither the name (.motion3.json, .physics3.json, .exp3.json, .pose3.json) nor the content tells which Cubism file this is")
		}
		if err := r.checkKind(root, kind); err != nil {
			return nil, warns, err
		}
		switch kind {
		case Motion:
			c := r.motion(ids, baseName(f.Name), root)
			c.Group = group
			clips = replaceOrAppend(clips, c, func(x p2lrt.Clip) string { return x.ID })
		case Expression:
			x := r.expression(ids, baseName(f.Name), root)
			exprs = replaceOrAppend(exprs, x, func(x p2lrt.Expression) string { return x.ID })
		case Physics:
			p, err := r.physics(ids, root)
			if err != nil {
				return nil, warns, err
			}
			phys = p
		case Pose:
			pose = r.pose(ids, root)
		}
		warns = append(warns, r.warns...)
	}
	out := *m
	out.Meta = slices.DeleteFunc(slices.Clone(m.Meta), func(e p2lrt.MetaEntry) bool { return e.Key == p2l.MetaPlayback })
	out.Meta = append(out.Meta, p2lrt.MetaEntry{Key: p2l.MetaPlayback, Value: p2l.PlaybackCubism.String()})
	out.Clips, out.Expressions, out.Physics, out.Pose = clips, exprs, phys, pose
	return &out, warns, nil
}

func replaceOrAppend[T any](s []T, v T, id func(T) string) []T {
	for i := range s {
		if id(s[i]) == id(v) {
			s[i] = v
			return s
		}
	}
	return append(s, v)
}

// ImportMotion converts a motion3.json file into a clip whose id is the file
// name without ".motion3.json" (see Import for the warnings).
func ImportMotion(m *p2lrt.File, name string, data []byte) (p2lrt.Clip, []Warning, error) {
	r, root, err := start(m, name, data, Motion)
	if err != nil {
		return p2lrt.Clip{}, nil, err
	}
	c := r.motion(newIDs(m), baseName(name), root)
	return c, r.warns, nil
}

// ImportExpression converts an exp3.json file into an expression whose id
// is the file name without ".exp3.json".
func ImportExpression(m *p2lrt.File, name string, data []byte) (p2lrt.Expression, []Warning, error) {
	r, root, err := start(m, name, data, Expression)
	if err != nil {
		return p2lrt.Expression{}, nil, err
	}
	x := r.expression(newIDs(m), baseName(name), root)
	return x, r.warns, nil
}

// ImportPose converts a pose3.json file (nil when no group remains).
func ImportPose(m *p2lrt.File, name string, data []byte) (*p2lrt.Pose, []Warning, error) {
	r, root, err := start(m, name, data, Pose)
	if err != nil {
		return nil, nil, err
	}
	p := r.pose(newIDs(m), root)
	return p, r.warns, nil
}

// ImportPhysics converts a physics3.json file.
func ImportPhysics(m *p2lrt.File, name string, data []byte) (p2lrt.Physics, []Warning, error) {
	r, root, err := start(m, name, data, Physics)
	if err != nil {
		return p2lrt.Physics{}, nil, err
	}
	p, err := r.physics(newIDs(m), root)
	return p, r.warns, err
}

func start(m *p2lrt.File, name string, data []byte, kind Kind) (*reader, value, error) {
	r := &reader{file: name}
	if m == nil {
		return r, value{}, r.errf("", "no model to import into")
	}
	root, err := r.parse(data)
	if err == nil {
		err = r.checkKind(root, kind)
	}
	return r, root, err
}

// ids maps Cubism ids to the model's parameters and parts. The framework
// compares ids exactly (CubismIdManager), so this does too; with duplicate
// ids the first record wins.
type ids struct {
	param, part map[string]int
	params      []p2lrt.Parameter
}

func newIDs(m *p2lrt.File) *ids {
	x := &ids{param: make(map[string]int, len(m.Parameters)), part: make(map[string]int, len(m.Parts)), params: m.Parameters}
	for i := len(m.Parameters) - 1; i >= 0; i-- {
		x.param[m.Parameters[i].ID] = i
	}
	for i := len(m.Parts) - 1; i >= 0; i-- {
		x.part[m.Parts[i].ID] = i
	}
	return x
}

func (x *ids) parameter(id string) (int, bool) { i, ok := x.param[id]; return i, ok }
func (x *ids) partIndex(id string) (int, bool) { i, ok := x.part[id]; return i, ok }

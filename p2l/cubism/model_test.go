package cubism

import (
	"github.com/psd2live/p2l-ebiten/p2l"
	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// readMocModel is ReadMoc made a model by p2l.NewModel, whose failure is
// reported as Load reports it.
func readMocModel(data []byte) (*p2l.Model, error) {
	f, err := ReadMoc(data)
	if err != nil {
		return nil, err
	}
	m, err := newModel(f)
	if err != nil {
		return nil, &Error{File: mocFile, Msg: "at the default pose: " + err.Error()}
	}
	return m, nil
}

// importModel is Import into m, made a model.
func importModel(m *p2lrt.File, group string, files ...File) (*p2l.Model, []Warning, error) {
	f, warns, err := Import(m, group, files...)
	if err != nil {
		return nil, warns, err
	}
	out, err := p2l.NewModel(f)
	return out, warns, err
}

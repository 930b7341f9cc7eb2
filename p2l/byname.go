package p2l

import "fmt"

// The ...ByName calls: the index calls of Rig with records found by the
// lookup rule (lookup.go: id, else name, else either ignoring case). An
// unknown name is a *NotFoundError listing the model's records, never a
// silent no-op. On an inert rig (nil, or failed) they return ErrInert.

// clipNamed finds a clip by the lookup rule.
func (r *Rig) clipNamed(name string) (int, error) {
	if r.dead() {
		return -1, ErrInert
	}
	m := r.model
	if i := m.ClipIndex(name); i >= 0 {
		return i, nil
	}
	return -1, &NotFoundError{Kind: "clip", Name: name, Candidates: candidates(len(m.Clips),
		func(i int) string { return m.Clips[i].ID }, func(i int) string { return m.Clips[i].Name })}
}

// expressionNamed finds an expression by the lookup rule.
func (r *Rig) expressionNamed(name string) (int, error) {
	if r.dead() {
		return -1, ErrInert
	}
	m := r.model
	if i := m.ExpressionIndex(name); i >= 0 {
		return i, nil
	}
	return -1, &NotFoundError{Kind: "expression", Name: name, Candidates: candidates(len(m.Expressions),
		func(i int) string { return m.Expressions[i].ID }, func(i int) string { return m.Expressions[i].Name })}
}

// PlayByName is Play for the clip with the given id or name.
func (r *Rig) PlayByName(name string) error {
	c, err := r.clipNamed(name)
	if err != nil {
		return err
	}
	r.Play(c)
	return nil
}

// PlayLayerByName is PlayLayer for the clip with the given id or name; a
// clip refused for its priority is an error wrapping ErrPriority.
func (r *Rig) PlayLayerByName(layer int, name string, priority int) error {
	c, err := r.clipNamed(name)
	if err != nil {
		return err
	}
	if layer < 0 || layer >= MaxLayers {
		return fmt.Errorf("p2l: layer %d out of range [0, %d)", layer, MaxLayers)
	}
	if !r.PlayLayer(layer, c, priority) {
		return fmt.Errorf("%w: clip %q at priority %d, layer %d at %d", ErrPriority, r.model.Clips[c].ID, priority, layer, r.LayerPriority(layer))
	}
	return nil
}

// SetExpressionByName is SetExpression for the expression with the given
// id or name; "" returns to neutral.
func (r *Rig) SetExpressionByName(name string) error {
	if name == "" {
		if r.dead() {
			return ErrInert
		}
		r.SetExpression(-1)
		return nil
	}
	e, err := r.expressionNamed(name)
	if err != nil {
		return err
	}
	r.SetExpression(e)
	return nil
}

// AddExpressionByName is AddExpression for the expression with the given
// id or name.
func (r *Rig) AddExpressionByName(name string) error {
	e, err := r.expressionNamed(name)
	if err != nil {
		return err
	}
	r.AddExpression(e)
	return nil
}

// RemoveExpressionByName is RemoveExpression for the expression with the
// given id or name.
func (r *Rig) RemoveExpressionByName(name string) error {
	e, err := r.expressionNamed(name)
	if err != nil {
		return err
	}
	r.RemoveExpression(e)
	return nil
}

// SetParameterByName is SetParameter for the parameter with the given id
// or name.
func (r *Rig) SetParameterByName(name string, v float32) error {
	if r.dead() {
		return ErrInert
	}
	m := r.model
	i := m.ParameterIndex(name)
	if i < 0 {
		return &NotFoundError{Kind: "parameter", Name: name, Candidates: candidates(len(m.Parameters),
			func(i int) string { return m.Parameters[i].ID }, func(i int) string { return m.Parameters[i].Name })}
	}
	r.SetParameter(i, v)
	return nil
}

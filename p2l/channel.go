package p2l

import (
	"fmt"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// numChannelIDs is the number of channel identifiers the format defines.
const numChannelIDs = int(p2lrt.ChannelGlueIntensity) + 1

// cchan is one channel prepared for evaluation.
type cchan struct {
	id   p2lrt.ChannelID
	kind p2lrt.ChannelKind
	g    cgrid
	vals []p2lrt.ChannelValue
}

// chanSet holds an object's channels by identifier; at[id] is −1 when the
// object has no channel id (its static value applies).
type chanSet struct {
	at   [numChannelIDs]int8
	list []cchan
}

// compileChannels compiles an object's channels; share (nil: none) lets
// it share compiled grids with other records.
func compileChannels(chs []p2lrt.Channel, nparams int, snap float32, share *buildShare) (chanSet, error) {
	var s chanSet
	for i := range s.at {
		s.at[i] = -1
	}
	if len(chs) > 0 {
		s.list = share.chanList(len(chs))
	}
	for i, ch := range chs {
		if int(ch.ID) >= numChannelIDs {
			return s, fmt.Errorf("channel %d: unknown channel id %d", i, ch.ID)
		}
		if ch.Kind > p2lrt.ChannelFlag {
			return s, fmt.Errorf("channel %d: unknown kind %d", i, ch.Kind)
		}
		if ch.Grid == nil {
			continue // "no grid": the static value applies
		}
		g, err := share.compileGrid(ch.Grid.Axes, len(ch.Grid.Cells), func(c int) []uint16 { return ch.Grid.Cells[c].Coord }, nparams, snap)
		if err != nil {
			return s, fmt.Errorf("channel %d: %w", i, err)
		}
		if s.at[ch.ID] >= 0 {
			continue // the first channel with an id wins (a file has each id once)
		}
		vals := share.channelValues(len(ch.Grid.Cells))
		for c := range ch.Grid.Cells {
			vals[c] = ch.Grid.Cells[c].Value
		}
		s.at[ch.ID] = int8(len(s.list))
		s.list = append(s.list, cchan{id: ch.ID, kind: ch.Kind, g: g, vals: vals})
	}
	return s, nil
}

// value evaluates channel id at the parameter values cur. Scalar and color
// channels blend multilinearly (a missing cell contributes zero); flag
// channels take the cell at the key not above the value on every axis.
// ok is false when the set has no such channel.
func (s *chanSet) value(id p2lrt.ChannelID, cur []float32, scratch []corner) (v [3]float64, ok bool) {
	i := s.at[id]
	if i < 0 {
		return v, false
	}
	return s.list[i].eval(cur, scratch)
}

// eval evaluates the channel at the parameter values cur. ok is false for
// a flag channel whose cell is missing: the value before it stays (eval.rs
// apply_channels).
func (ch *cchan) eval(cur []float32, scratch []corner) (v [3]float64, ok bool) {
	if ch.kind == p2lrt.ChannelFlag {
		c := ch.g.flagCell(cur)
		if c < 0 {
			return v, false
		}
		cv := ch.vals[c]
		return [3]float64{float64(cv[0]), float64(cv[1]), float64(cv[2])}, true
	}
	for _, c := range ch.g.weights(cur, scratch) {
		if c.cell < 0 {
			continue
		}
		cv := ch.vals[c.cell]
		w := float64(c.w)
		v[0] += w * float64(cv[0])
		v[1] += w * float64(cv[1])
		v[2] += w * float64(cv[2])
	}
	return v, true
}

// scalar evaluates a scalar channel, or returns def when absent.
func (s *chanSet) scalar(id p2lrt.ChannelID, def float32, cur []float32, scratch []corner) float64 {
	if v, ok := s.value(id, cur, scratch); ok {
		return v[0]
	}
	return float64(def)
}

// color evaluates a color channel, or returns def when absent.
func (s *chanSet) color(id p2lrt.ChannelID, def p2lrt.Color, cur []float32, scratch []corner) [3]float64 {
	if v, ok := s.value(id, cur, scratch); ok {
		return v
	}
	return [3]float64{float64(def[0]), float64(def[1]), float64(def[2])}
}

// maxAxes returns the largest axis count among the channels.
func (s *chanSet) maxAxes() int {
	m := 0
	for i := range s.list {
		m = max(m, len(s.list[i].g.params))
	}
	return m
}

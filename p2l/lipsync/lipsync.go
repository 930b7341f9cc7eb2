// Package lipsync estimates how a mouth moves from the sound it makes: the
// opening from the level of the audio, and the vowel (A, I, U, E, O) from
// its first two formants. It imports no display or audio package, so
// mobile hosts, tests and custom players can use it as the Ebitengine voice
// (ebitenp2l.Voice) does.
//
// Feed an Analyzer the samples being heard now, once per frame, and give
// the result to p2l.Rig.LipSync:
//
//	var a lipsync.Analyzer
//	f := a.Analyze(window, 44100, dt) // mono samples in [−1, 1]
//	rig.LipSync(f.Level, f.Vowels)
//
// # Method
//
// Level: the root mean square of the window times Options.Gain, clamped to
// [0, 1].
//
// Vowel: the window (its last 50 ms at most) is low-pass filtered and
// decimated to about 11 kHz, pre-emphasized (first-order, 50 Hz), weighted
// with a Hamming window and modelled by linear prediction (autocorrelation
// method, Levinson–Durbin, order 2 + rate/1000). The prediction
// polynomial's roots are found (Durand–Kerner iteration); each root pair
// above the real axis with a bandwidth under 500 Hz is a resonance of the
// vocal tract. F1 is the lowest in [180, 1200] Hz, F2 the next one in
// [600, 3500] Hz. The vowel weights come from the distance of (log F1,
// log F2) to five reference points (see Reference), scaled by
// Options.FormantScale: w ∝ exp(−d²/2), normalized, then multiplied by a
// confidence that is 0 for silence, for unvoiced sound (low correlation
// between neighbouring samples) and for formants far from every vowel.
//
// # Limits
//
// Formants depend on the speaker: the reference points are averages of
// adult men's and women's Japanese vowels; children or very high voices
// need FormantScale above 1 (their formants are higher). Above about 300 Hz
// of pitch the harmonics are too sparse for linear prediction to find the
// formants reliably. English and other languages have more than five
// vowels: each is drawn to the nearest of the five. Music, several voices
// at once and noise give meaningless vowels (the level still works). The
// window lags the sound by half its length.
package lipsync

import (
	"math"
	"math/cmplx"
)

// The vowels, as indices into Frame.Vowels and Reference.
const (
	A = iota
	I
	U
	E
	O
)

// Formants is a pair of formant frequencies in Hz.
type Formants struct{ F1, F2 float64 }

// Reference holds the formants the vowel weights are measured against:
// for each vowel the geometric mean of typical adult male and female
// Japanese values (men: a 750/1200, i 280/2250, u 330/1350, e 480/1850,
// o 470/800 Hz; women: a 850/1350, i 320/2700, u 370/1600, e 540/2250,
// o 500/900 Hz).
var Reference = [5]Formants{
	A: {800, 1275},
	I: {300, 2465},
	U: {350, 1470},
	E: {510, 2040},
	O: {485, 850},
}

// Options set an Analyzer. The zero value is ready to use.
type Options struct {
	// Gain multiplies the RMS of the samples into the level (0: DefaultGain).
	Gain float32
	// FormantScale multiplies the reference formants (0: 1). Use about 1.15
	// for children, 0.95 for deep voices.
	FormantScale float32
	// Smoothing is the time constant in seconds of the vowel weights'
	// first-order smoothing (0: DefaultSmoothing; negative: none).
	Smoothing float32
	// NoVowels turns vowel estimation off: the frame has the level only.
	NoVowels bool
}

// DefaultGain maps ordinary speech (RMS about 0.1–0.2 of full scale) onto
// most of the mouth's range.
const DefaultGain = 5

// DefaultWindow is the span of audio, in seconds, a player should pass per
// frame: the most recent samples heard (ebitenp2l.Voice and the mobile
// binding use it).
const DefaultWindow = 1.0 / 25

// DefaultSmoothing is the vowel weights' time constant.
const DefaultSmoothing = 0.05

// Frame is the analysis of one window of samples.
type Frame struct {
	// Level is the mouth opening in [0, 1].
	Level float32
	// Vowels are the weights of A, I, U, E, O; their sum, at most 1, is the
	// confidence that the sound is one of them (0 for silence, noise and
	// consonants).
	Vowels [5]float32
	// Formants are F1 and F2 of the window in Hz, 0 when not found.
	Formants Formants
}

const (
	maxOrder   = 16
	targetRate = 11025
	maxSpan    = 0.05 // seconds of a window used for the vowel
	minRate    = 8000
	maxRate    = 384000
)

// Analyzer estimates level and vowel from windows of mono samples. Its
// zero value uses the default Options. It keeps scratch space and the
// smoothing state between calls, so give each voice its own; after the
// first call at a sample rate it does not allocate.
type Analyzer struct {
	Options Options

	rate    int       // sample rate the filter was made for
	dec     int       // decimation factor
	taps    []float64 // low-pass filter
	buf     []float64 // decimated window
	hamming []float64 // Hamming weights of the last window length
	smooth  [5]float64
	primed  bool
	voicing float64 // of the last window, in [0, 1]
}

// NewAnalyzer returns an analyzer with the given options (nil: defaults).
func NewAnalyzer(opts *Options) *Analyzer {
	a := &Analyzer{}
	if opts != nil {
		a.Options = *opts
	}
	return a
}

// Reset forgets the smoothing state (a new voice starts).
func (a *Analyzer) Reset() { a.smooth, a.primed = [5]float64{}, false }

// Analyze returns the level and vowel of samples (mono, in [−1, 1], the
// most recent last) at sampleRate Hz; dt is the time since the previous
// call, for the smoothing (0: no smoothing this call). Sample rates
// outside [8000, 384000] Hz give the level only.
func (a *Analyzer) Analyze(samples []float32, sampleRate int, dt float64) Frame {
	gain := float64(a.Options.Gain)
	if !(gain > 0) {
		gain = DefaultGain
	}
	var f Frame
	f.Level = float32(clamp(rms(samples)*gain, 0, 1))
	var raw [5]float64
	if !a.Options.NoVowels && sampleRate >= minRate && sampleRate <= maxRate && f.Level > 0 {
		var ok bool
		f.Formants, ok = a.formants(samples, sampleRate)
		if ok {
			raw = vowelWeights(f.Formants, float64(a.Options.FormantScale))
		}
		// Quiet sound: the vowel counts less (speech fades in and out).
		c := smoothstep(0.02, 0.12, float64(f.Level)) * a.voicing
		for i := range raw {
			raw[i] *= c
		}
	}
	tau := float64(a.Options.Smoothing)
	if tau == 0 {
		tau = DefaultSmoothing
	}
	k := 1.0
	if a.primed && tau > 0 && dt > 0 {
		k = 1 - math.Exp(-dt/tau)
	}
	for i := range raw {
		a.smooth[i] += (raw[i] - a.smooth[i]) * k
		f.Vowels[i] = float32(a.smooth[i])
	}
	a.primed = true
	return f
}

// formants estimates F1 and F2 of the last maxSpan seconds of samples and
// sets a.voicing; ok is false when no vowel-like pair was found.
func (a *Analyzer) formants(samples []float32, rate int) (Formants, bool) {
	a.voicing = 0
	a.setRate(rate)
	fs := float64(rate) / float64(a.dec)
	// Decimate the last maxSpan seconds through the low-pass filter.
	n := min(len(samples), int(maxSpan*float64(rate)))
	x := samples[len(samples)-n:]
	nt := len(a.taps)
	if n < nt {
		return Formants{}, false
	}
	m := (n-nt)/a.dec + 1
	y := a.buf[:m]
	for k := range y {
		s := 0.0
		seg := x[k*a.dec : k*a.dec+nt]
		for j, h := range a.taps {
			s += h * float64(seg[j])
		}
		y[k] = s
	}
	order := min(maxOrder, 2+int(fs/1000))
	if m < 4*order {
		return Formants{}, false
	}
	// Voicing: the correlation of neighbouring samples (before
	// pre-emphasis) is high for vowels, low for noise and hiss.
	var r0, r1 float64
	for k := range y {
		r0 += y[k] * y[k]
		if k > 0 {
			r1 += y[k] * y[k-1]
		}
	}
	if !(r0 > 0) {
		return Formants{}, false
	}
	a.voicing = smoothstep(0.55, 0.85, r1/r0)
	// Pre-emphasis from 50 Hz, then a Hamming window (made once per
	// window length).
	if len(a.hamming) != m {
		a.hamming = make([]float64, m)
		for k := range a.hamming {
			a.hamming[k] = 0.54 - 0.46*math.Cos(2*math.Pi*float64(k)/float64(m-1))
		}
	}
	pre := math.Exp(-2 * math.Pi * 50 / fs)
	prev := y[0]
	for k := range y {
		v := y[k]
		y[k] = (v - pre*prev) * a.hamming[k]
		prev = v
	}
	// Autocorrelation and Levinson–Durbin.
	var r [maxOrder + 1]float64
	for lag := 0; lag <= order; lag++ {
		s := 0.0
		for k := lag; k < m; k++ {
			s += y[k] * y[k-lag]
		}
		r[lag] = s
	}
	if !(r[0] > 0) {
		return Formants{}, false
	}
	r[0] *= 1 + 1e-9
	var lpc [maxOrder + 1]float64
	if !levinson(r[:order+1], lpc[:order+1]) {
		return Formants{}, false
	}
	// Roots of z^p + a1 z^(p−1) + … + ap.
	var roots [maxOrder]complex128
	if !polyRoots(lpc[:order+1], roots[:order]) {
		return Formants{}, false
	}
	// Resonances: frequency and bandwidth of the roots above the axis,
	// sorted by frequency.
	var freq [maxOrder]float64
	nf := 0
	for _, z := range roots[:order] {
		if imag(z) <= 0 {
			continue
		}
		rad := cmplx.Abs(z)
		if rad >= 1 || rad <= 0 {
			continue
		}
		f := cmplx.Phase(z) * fs / (2 * math.Pi)
		bw := -math.Log(rad) * fs / math.Pi
		if bw < 500 && f > 0 {
			freq[nf] = f
			nf++
		}
	}
	sortFloats(freq[:nf])
	var out Formants
	k := 0
	for ; k < nf; k++ {
		if freq[k] >= 180 && freq[k] <= 1200 {
			out.F1 = freq[k]
			break
		}
	}
	for k++; k < nf; k++ {
		if freq[k] >= 600 && freq[k] <= 3500 {
			out.F2 = freq[k]
			break
		}
	}
	if out.F1 == 0 || out.F2 == 0 {
		return out, false
	}
	return out, true
}

// setRate makes the decimation filter for a sample rate: a Hann-windowed
// sinc low-pass at 0.45 of the decimated rate, decimation by the integer
// nearest rate/11025.
func (a *Analyzer) setRate(rate int) {
	if rate == a.rate {
		return
	}
	a.rate = rate
	a.dec = max(1, int(float64(rate)/targetRate+0.5))
	nt := 8*a.dec + 1
	a.taps = make([]float64, nt)
	fc := 0.45 / float64(a.dec) // cycles per input sample
	sum := 0.0
	for j := range a.taps {
		t := float64(j - nt/2)
		h := 2 * fc
		if t != 0 {
			h = math.Sin(2*math.Pi*fc*t) / (math.Pi * t)
		}
		h *= 0.5 - 0.5*math.Cos(2*math.Pi*float64(j+1)/float64(nt+1))
		a.taps[j] = h
		sum += h
	}
	for j := range a.taps {
		a.taps[j] /= sum
	}
	a.buf = make([]float64, int(maxSpan*float64(rate))/a.dec+1)
}

// levinson solves the normal equations for the prediction coefficients of
// autocorrelation r into a (a[0] = 1); false when r is not positive
// definite.
func levinson(r, a []float64) bool {
	p := len(r) - 1
	clear(a)
	a[0] = 1
	e := r[0]
	var tmp [maxOrder + 1]float64
	for i := 1; i <= p; i++ {
		acc := r[i]
		for j := 1; j < i; j++ {
			acc += a[j] * r[i-j]
		}
		k := -acc / e
		if !(math.Abs(k) < 1) {
			return false
		}
		copy(tmp[:i], a[:i])
		for j := 1; j < i; j++ {
			a[j] = tmp[j] + k*tmp[i-j]
		}
		a[i] = k
		e *= 1 - k*k
		if !(e > 0) {
			return false
		}
	}
	return true
}

// polyRoots finds the roots of the monic polynomial z^p + c[1] z^(p−1) + … +
// c[p] by Durand–Kerner iteration from points on a circle of radius 0.9;
// false when it does not converge.
func polyRoots(c []float64, roots []complex128) bool {
	p := len(roots)
	for k := range roots {
		roots[k] = cmplx.Rect(0.9, 2*math.Pi*(float64(k)+0.25)/float64(p))
	}
	eval := func(z complex128) complex128 {
		v := complex(1, 0)
		for _, ck := range c[1:] {
			v = v*z + complex(ck, 0)
		}
		return v
	}
	for iter := 0; iter < 200; iter++ {
		moved := 0.0
		for k := range roots {
			z := roots[k]
			den := complex(1, 0)
			for j := range roots {
				if j != k {
					den *= z - roots[j]
				}
			}
			if den == 0 {
				den = complex(1e-12, 0)
			}
			d := eval(z) / den
			roots[k] = z - d
			moved = math.Max(moved, cmplx.Abs(d))
		}
		if moved < 1e-10 {
			return true
		}
	}
	// Not fully converged: accept when every root nearly satisfies P.
	for _, z := range roots {
		if cmplx.Abs(eval(z)) > 1e-6 {
			return false
		}
	}
	return true
}

// vowelWeights are the normalized weights of the five vowels for the
// formants f, times a confidence falling off for formants far from all.
func vowelWeights(f Formants, scale float64) [5]float64 {
	if !(scale > 0) {
		scale = 1
	}
	const s1, s2 = 0.25, 0.2 // spread of log F1 and log F2 per vowel
	var w [5]float64
	dmin := math.Inf(1)
	var d2 [5]float64
	for v, ref := range Reference {
		x := math.Log(f.F1/(ref.F1*scale)) / s1
		y := math.Log(f.F2/(ref.F2*scale)) / s2
		d2[v] = x*x + y*y
		dmin = math.Min(dmin, d2[v])
	}
	sum := 0.0
	for v := range w {
		w[v] = math.Exp(-(d2[v] - dmin) / 2)
		sum += w[v]
	}
	// Beyond two spreads from the nearest vowel the estimate fades out.
	conf := math.Exp(-math.Max(0, dmin-4) / 2)
	for v := range w {
		w[v] *= conf / sum
	}
	return w
}

func rms(samples []float32) float64 {
	if len(samples) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range samples {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s / float64(len(samples)))
}

func clamp(v, lo, hi float64) float64 {
	if !(v > lo) {
		return lo
	}
	return math.Min(v, hi)
}

// smoothstep rises smoothly from 0 at e0 to 1 at e1.
func smoothstep(e0, e1, x float64) float64 {
	t := clamp((x-e0)/(e1-e0), 0, 1)
	return t * t * (3 - 2*t)
}

// sortFloats is an insertion sort (at most maxOrder values, no allocation).
func sortFloats(v []float64) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}

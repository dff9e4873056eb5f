package server

import (
	"strconv"
	"sync"
	"time"

	"github.com/stdiotools/toolserver/i18n"
)

// callLimiter enforces [Options.MaxCalls] and [Options.CallsPerSecond] for
// one session: a count, and a token bucket that holds one second's worth
// of calls.
type callLimiter struct {
	max  int     // calls per session; 0 means no limit
	rate float64 // calls per second; 0 means no limit
	now  func() time.Time

	mu     sync.Mutex
	calls  int
	tokens float64
	last   time.Time
}

func newCallLimiter(opts *Options) *callLimiter {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	l := &callLimiter{max: opts.MaxCalls, rate: opts.CallsPerSecond, now: now}
	l.tokens = l.burst()
	l.last = now()
	return l
}

func (l *callLimiter) burst() float64 { return max(1, l.rate) }

// admit counts a call and returns nil if it may run, or the sentence, in
// lang, that tells the model why not.
func (l *callLimiter) admit(lang i18n.Lang) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.max > 0 && l.calls >= l.max {
		return refusal(say(lang, msgCallsUsed, strconv.Itoa(l.max)))
	}
	if l.rate > 0 {
		t := l.now()
		l.tokens = min(l.burst(), l.tokens+t.Sub(l.last).Seconds()*l.rate)
		l.last = t
		if l.tokens < 1 {
			wait := time.Duration((1 - l.tokens) / l.rate * float64(time.Second)).Round(time.Millisecond)
			return refusal(say(lang, msgRate, strconv.FormatFloat(l.rate, 'g', -1, 64), max(wait, time.Millisecond).String()))
		}
		l.tokens--
	}
	l.calls++
	return nil
}

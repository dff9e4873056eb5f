//go:build !windows

package main

import (
	"math"
	"slices"
	"time"
)

// Summary is the distribution of one target's samples of one measure.
// Percentiles are nearest-rank: the median of an even count is the lower of
// the two middle samples.
type Summary struct {
	N      int           `json:"n"`         // samples
	Min    time.Duration `json:"min_ns"`    // fastest
	Median time.Duration `json:"median_ns"` // 50th percentile
	P90    time.Duration `json:"p90_ns"`    // 90th percentile
	P99    time.Duration `json:"p99_ns"`    // 99th percentile
	Max    time.Duration `json:"max_ns"`    // slowest
}

// summarize sorts a copy of samples and reads off its summary.
func summarize(samples []time.Duration) Summary {
	if len(samples) == 0 {
		return Summary{}
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	return Summary{
		N:      len(s),
		Min:    s[0],
		Median: percentile(s, 0.50),
		P90:    percentile(s, 0.90),
		P99:    percentile(s, 0.99),
		Max:    s[len(s)-1],
	}
}

// percentile returns the nearest-rank p-quantile (0 < p ≤ 1) of sorted.
func percentile(sorted []time.Duration, p float64) time.Duration {
	rank := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[max(0, min(rank, len(sorted)-1))]
}

// median returns the median of xs, the mean of the middle two for an even
// count (0 for none).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[n/2]
}

//go:build !windows

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// pinnedEnv marks a toolbench that has already re-executed itself under
// taskset, so that it never does so twice.
const pinnedEnv = "TOOLBENCH_PINNED"

// allowedCPUs returns the CPUs this process may run on, from
// Cpus_allowed_list in /proc/self/status, and that list as written there.
func allowedCPUs() ([]int, string, error) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return nil, "", err
	}
	for line := range bytes.Lines(status) {
		if rest, ok := bytes.CutPrefix(line, []byte("Cpus_allowed_list:")); ok {
			list := string(bytes.TrimSpace(rest))
			cpus, err := parseCPUList(list)
			return cpus, list, err
		}
	}
	return nil, "", errors.New("no Cpus_allowed_list in /proc/self/status")
}

// parseCPUList parses a CPU list such as "0", "0,2" or "0-3,6" (the taskset
// -c syntax) into sorted CPU numbers.
func parseCPUList(list string) ([]int, error) {
	var cpus []int
	for part := range strings.SplitSeq(list, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 0 || b < a {
			return nil, fmt.Errorf("bad CPU list %q", list)
		}
		for c := a; c <= b; c++ {
			cpus = append(cpus, c)
		}
	}
	slices.Sort(cpus)
	return slices.Compact(cpus), nil
}

// pin makes sure this process runs on the CPUs in list. When it does not,
// pin replaces the process with "taskset -c list" running toolbench again
// with args, so pin returns only when nothing is to be done or on error.
// Child processes inherit the affinity. With an empty list pin changes
// nothing and fails for nothing. It returns the CPUs in force, as numbers
// and as a list.
func pin(list string, args []string) ([]int, string, error) {
	have, haveList, err := allowedCPUs()
	if list == "" {
		if err != nil {
			haveList = "unknown"
		}
		return have, haveList, nil
	}
	if err != nil {
		return have, haveList, err
	}
	want, err := parseCPUList(list)
	if err != nil {
		return have, haveList, err
	}
	if slices.Equal(have, want) {
		return have, haveList, nil
	}
	if os.Getenv(pinnedEnv) != "" {
		return have, haveList, fmt.Errorf("still on CPUs %s after taskset -c %s (not allowed by the cgroup?)", haveList, list)
	}
	taskset, err := exec.LookPath("taskset")
	if err != nil {
		return have, haveList, fmt.Errorf("-cpu needs taskset (util-linux): %w", err)
	}
	self, err := os.Executable()
	if err != nil {
		return have, haveList, err
	}
	argv := append([]string{"taskset", "-c", list, self}, args...)
	env := append(os.Environ(), pinnedEnv+"=1")
	return have, haveList, syscall.Exec(taskset, argv, env)
}

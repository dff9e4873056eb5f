package fs

import (
	"context"

	"github.com/stdiotools/toolserver/i18n"

	"github.com/stdiotools/toolserver/server"
)

// change runs a change of the files rels (resolved paths): plan checks
// everything about them and returns what the change will be and the
// sentence that asks the user to approve it (empty when there is nothing
// to change), and apply makes the change planned, filling in the result.
//
// Every change is decided under the files' write locks
// (security.Sandbox.LockWrite), held from the read it decides on to the
// rename that puts its result in place, so that no two changes of one
// file interleave and none is lost:
//   - In a dry run, plan alone runs, and no lock is taken.
//   - When the call asks the user ([server.Call.Confirms]), plan runs
//     first and the user is asked without the locks, since the answer may
//     take minutes; then the locks are taken, and plan runs again on the
//     files as they are now. If the question it would ask now is not the
//     one the user answered (another writer created, replaced or resized
//     a file meanwhile), nothing is changed and the call is refused with a
//     sentence that says so, to be made again; otherwise apply makes the
//     change approved. A plan with nothing to change returns at once.
//   - Otherwise the locks are taken first, and plan and apply run once
//     under them: one read of the files.
//
// An error of plan or apply, of the confirmation or of the lock (a
// *security.PathError that names the file another writer holds, or
// ctx's error) is returned as it is.
func change[P any](ctx context.Context, t *toolset, call *server.Call, dryRun bool, rels []string,
	plan func() (P, message, error), apply func(*P) error) (P, error) {
	var none P
	if dryRun {
		return preview(plan)
	}
	var asked string // the question the user approved, in English
	if call.Confirms() {
		p, ask, err := plan()
		if err != nil || ask.IsZero() {
			return p, err
		}
		if err := confirm(ctx, call, ask); err != nil {
			return none, err
		}
		asked = ask.In(i18n.English)
	}
	// A lock held by another writer is waited for with the call's slot
	// given back: the holder may need one to finish.
	unlock, free, err := t.sb.TryLockWrite(rels...)
	if err == nil && !free {
		call.Yield(func() { unlock, err = t.sb.LockWrite(ctx, rels...) })
	}
	if err != nil {
		return none, err
	}
	defer unlock()
	if err := ctx.Err(); err != nil {
		return none, err // cancelled, or out of time, as the lock came
	}
	p, ask, err := plan()
	if err != nil {
		return none, err
	}
	if asked != "" && ask.In(i18n.English) != asked {
		return none, fail(msgChangedWhileAsked, lit(quote(rels[0])))
	}
	if err := apply(&p); err != nil {
		return none, err
	}
	return p, nil
}

// preview runs plan alone, for a dry run.
func preview[P any](plan func() (P, message, error)) (P, error) {
	p, _, err := plan()
	return p, err
}

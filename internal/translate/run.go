package translate

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quire-docs/quire/store"
)

// Run runs the translation whose id is the job's payload. Whatever happens, the run ends with the
// translation completed and its stats counted; a failed run writes nothing to the result space,
// logs why, and the next run retries everything this one would have done.
func (r *Runner) Run(ctx context.Context, id string) error {
	t, err := r.Store.StartTranslationRun(ctx, id)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return nil // deleted since the run was queued
	}
	if err != nil {
		return err
	}
	if t.Pending != nil {
		if t, err = r.recoverPending(ctx, t); err != nil {
			return err
		}
	}
	start := r.Store.Now()
	out, runErr := r.run(ctx, t, start)
	if runErr != nil {
		out = store.TranslationRun{DurationMS: r.Store.Now().Sub(start).Milliseconds(), Err: runErr.Error()}
		r.Log.Error("translation run failed", "translation", t.ID, "err", runErr)
	}
	if err := r.Store.FinishTranslationRun(ctx, t.ID, out); err != nil && store.ErrorCode(err) != store.ENOTFOUND {
		return err
	}
	if runErr == nil {
		r.Log.Info("translation run", "translation", t.ID, "pages", out.Pages, "words", out.Words, "ms", out.DurationMS)
	}
	return runErr
}

func (r *Runner) run(ctx context.Context, t *store.Translation, start time.Time) (store.TranslationRun, error) {
	if r.Client == nil {
		return store.TranslationRun{}, fmt.Errorf("no translator is configured (--translator-url)")
	}
	src, err := r.Store.FindSpace(ctx, t.SourceSpaceID)
	if err != nil || src.DeletedAt != nil || src.OrganizationID != t.OrganizationID {
		return store.TranslationRun{}, fmt.Errorf("the source space %s is no longer there", t.SourceSpaceID)
	}
	from, to, err := r.Client.Pair(ctx, t.SourceLanguage, t.Language)
	if err != nil {
		return store.TranslationRun{}, err
	}
	records, err := r.Store.FindTranslatedPages(ctx, t.ID)
	if err != nil {
		return store.TranslationRun{}, err
	}
	result, err := r.resultSpace(ctx, t, src)
	if err != nil {
		return store.TranslationRun{}, err
	}
	known := records // the source pages translated before, for the count of distinct pages
	var stale []string
	if t.ResultSpaceID == nil || *t.ResultSpaceID != result.ID {
		for id := range records { // a new result space: what the old one held is no guide
			stale = append(stale, id)
		}
		records = map[string]store.TranslatedPage{}
	}
	srcRev, err := r.Store.FindRevision(ctx, src.ID, src.RevisionID)
	if err != nil {
		return store.TranslationRun{}, err
	}
	resRev, err := r.Store.FindRevision(ctx, result.ID, result.RevisionID)
	if err != nil {
		return store.TranslationRun{}, err
	}
	p, err := r.plan(ctx, t, srcRev, resRev, records, from, to)
	if err != nil {
		return store.TranslationRun{}, err
	}
	// outcome is the run's record once the batch's refs have their ids.
	outcome := func(refs map[string]string, revision *string) store.TranslationRun {
		out := store.TranslationRun{Pages: p.pages, Words: p.words, Deleted: append(p.deleted, stale...), Revision: revision,
			DurationMS: r.Store.Now().Sub(start).Milliseconds()}
		for _, u := range p.upsert {
			if p.newRefs[u.ResultPageID] {
				u.ResultPageID = refs[u.ResultPageID]
			}
			if _, ok := known[u.SourcePageID]; !ok {
				out.NewPages++
			}
			out.Upsert = append(out.Upsert, u)
		}
		return out
	}
	revision := result.RevisionID
	refs := map[string]string{}
	if len(p.changes) > 0 {
		subject := fmt.Sprintf("Translation into %s", t.Language)
		cr, err := r.Store.CreateChangeRequest(ctx, result.ID, t.RunBy, subject)
		if err != nil {
			return store.TranslationRun{}, err
		}
		stage := func(refs map[string]string) error {
			return r.Store.StageTranslationRun(ctx, t.ID, store.PendingTranslationRun{ChangeRequestID: cr.ID, SpaceID: result.ID,
				Run: outcome(refs, nil)})
		}
		rev, err := r.writeAndMerge(ctx, result.ID, cr, t.RunBy, p.changes, refs, stage)
		if err != nil {
			// The run's change request never reaches the result's content: it is archived, so
			// the space's open change requests show only people's work.
			archived := "archived"
			if _, aerr := r.Store.UpdateChangeRequest(context.WithoutCancel(ctx), result.ID, cr.ID,
				store.ChangeRequestUpdate{Status: &archived}); aerr != nil {
				r.Log.Error("archiving a failed translation's change request", "space", result.ID, "change_request", cr.ID, "err", aerr)
			}
			return store.TranslationRun{}, err
		}
		revision = rev
	}
	return outcome(refs, &revision), nil
}

// recoverPending records the run a crash cut short between its merge and its record (its
// change request was merged), or archives its change request (it was not), and returns the
// translation as it is now.
func (r *Runner) recoverPending(ctx context.Context, t *store.Translation) (*store.Translation, error) {
	p := t.Pending
	cr, err := r.Store.FindChangeRequest(ctx, p.SpaceID, p.ChangeRequestID)
	switch {
	case err == nil && cr.Status == "merged" && cr.RevisionMerged != nil:
		run := p.Run
		run.Revision = cr.RevisionMerged
		r.Log.Info("recording an interrupted translation run", "translation", t.ID, "change_request", cr.ID)
		if err := r.Store.FinishTranslationRun(ctx, t.ID, run); err != nil {
			return nil, err
		}
	case err == nil && (cr.Status == "open" || cr.Status == "draft"):
		archived := "archived"
		if _, err := r.Store.UpdateChangeRequest(ctx, p.SpaceID, cr.ID, store.ChangeRequestUpdate{Status: &archived}); err != nil {
			return nil, err
		}
	case err != nil && store.ErrorCode(err) != store.ENOTFOUND:
		return nil, err
	}
	// What was not recorded is done again by this run; its record clears the pending one.
	return r.Store.StartTranslationRun(ctx, t.ID)
}

// writeAndMerge writes a run's batch into its change request and merges it; refs receives the
// ids the batch's refs were given.
func (r *Runner) writeAndMerge(ctx context.Context, spaceID string, cr *store.ChangeRequest, userID string,
	changes []store.PageChange, refs map[string]string, stage func(map[string]string) error) (string, error) {
	res, err := r.Store.UpdateChangeRequestContent(ctx, spaceID, cr.ID, userID, changes)
	if err != nil {
		return "", fmt.Errorf("writing the translated pages: %w", err)
	}
	for k, v := range res.Refs {
		refs[k] = v
	}
	if err := stage(refs); err != nil {
		return "", err
	}
	rev, conflicts, err := r.Store.MergeChangeRequest(ctx, spaceID, cr.ID, userID)
	if err != nil {
		return "", err
	}
	if conflicts {
		return "", fmt.Errorf("the result space changed during the run: change request %d conflicts with it", cr.Number)
	}
	// A result space linked to a git branch pushes the merge, as a merge in the app does.
	if _, err := store.QueuePush(ctx, r.Store, spaceID, userID, cr.Subject); err != nil {
		r.Log.Error("queueing the push of a translation", "space", spaceID, "err", err)
	}
	return rev, nil
}

// resultSpace returns the translation's result space, creating it on the first run (or when the
// one it had was deleted): same organization, titled with the language, in that language.
func (r *Runner) resultSpace(ctx context.Context, t *store.Translation, src *store.Space) (*store.Space, error) {
	if t.ResultSpaceID != nil {
		sp, err := r.Store.FindSpace(ctx, *t.ResultSpaceID)
		if err == nil && sp.DeletedAt == nil {
			return sp, nil
		}
		if err != nil && store.ErrorCode(err) != store.ENOTFOUND {
			return nil, err
		}
	}
	suffix := " (" + t.Language + ")"
	title := src.Title
	for utf8.RuneCountInString(title+suffix) > 50 {
		_, size := utf8.DecodeLastRuneInString(title)
		title = title[:len(title)-size]
	}
	lang := t.Language
	sp, err := r.Store.CreateSpace(ctx, t.OrganizationID, t.RunBy, store.SpaceCreate{Title: strings.TrimSpace(title) + suffix, Language: &lang})
	if err != nil {
		return nil, err
	}
	if err := r.Store.SetTranslationResultSpace(ctx, t.ID, sp.ID); err != nil {
		return nil, err
	}
	return sp, nil
}

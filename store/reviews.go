package store

import (
	"context"
	"time"
)

// Review statuses.
const (
	ReviewApproved         = "approved"
	ReviewChangesRequested = "changes-requested"
)

// Review is a reviewer's verdict on a change request, made against its revision of the time.
type Review struct {
	ID              string
	ChangeRequestID string
	Reviewer        User
	RequestedBy     *User // who asked the reviewer; nil when nobody had
	Status          string
	RevisionID      string
	CommentID       *string // the comment posted with the review, in the change request's thread
	// Outdated: the change request has moved on since, or the reviewer reviewed again, or was
	// asked again.
	Outdated  bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// RequestedReviewer is a user asked to review a change request.
type RequestedReviewer struct {
	User        User
	RequestedBy User
	RevisionID  string // the change request's revision when they were asked
	CreatedAt   time.Time
}

// Contributor is a user who worked on a change request: edited its content ("edit") or
// commented on it ("comment"), how often, and when last.
type Contributor struct {
	User      User
	Action    string
	Count     int
	UpdatedAt time.Time
}

// NewReview is what submitting a review needs.
type NewReview struct {
	ReviewerID string
	Status     string
	Comment    *NewComment // posted in the change request's thread with the review, when set
}

// ReviewFilter narrows a list of reviews.
type ReviewFilter struct {
	Outdated *bool
}

// Reviews are the reviews of change requests and the reviewers asked for them. Only open and
// draft change requests take requests and reviews; a merged or archived one is ECONFLICT, and
// its author reviewing it, or being asked to, is EINVALID.
type Reviews interface {
	// RequestReviewers asks members of the space's organization to review a change request, with
	// the change request's subject and description changed as upd says (Subject, Description), and
	// moves a draft to open: asking for review is what makes it ready. A user asked again is
	// asked anew (their earlier reviews are outdated). users[i] not a member: EINVALID naming it.
	RequestReviewers(ctx context.Context, spaceID, crID, byUserID string, users []string, upd ChangeRequestUpdate) ([]*RequestedReviewer, error)
	// FindRequestedReviewers lists the users asked to review a change request, first asked first.
	FindRequestedReviewers(ctx context.Context, spaceID, crID string, p Page) (List[*RequestedReviewer], error)
	// RemoveRequestedReviewer withdraws a request; removed is false when there was none.
	RemoveRequestedReviewer(ctx context.Context, spaceID, crID, userID string) (removed bool, err error)
	// SubmitReview records a review of a change request's current revision, with its comment.
	SubmitReview(ctx context.Context, spaceID, crID string, nr NewReview) (*Review, error)
	// FindReviews lists a change request's reviews, oldest first.
	FindReviews(ctx context.Context, spaceID, crID string, f ReviewFilter, p Page) (List[*Review], error)
	// FindReview returns a review of a change request.
	FindReview(ctx context.Context, spaceID, crID, id string) (*Review, error)
	// FindContributors lists who edited and who commented on a change request, most recent first.
	FindContributors(ctx context.Context, spaceID, crID string) ([]*Contributor, error)
	// MergeChangeRequestByRules merges as MergeChangeRequest does once the space's merge rules
	// (its own, or its organization's when it inherits them) let userID merge it, checked in the
	// merge's transaction against the reviews of that moment: a rule unmet is the *Error
	// MergeRules.Check answers, and nothing changes.
	MergeChangeRequestByRules(ctx context.Context, spaceID, crID, userID string) (revision string, conflicts bool, err error)
}

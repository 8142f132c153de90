package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/store"
)

// A creation's request names where it creates (the organization, the space…), not what it makes:
// its event's target becomes what it made, read from the id of the answer, once the write has
// committed and been answered. The parent stays in the event's payload (its path parameters).

// auditCreates are the creations, with the kind of resource each makes.
var auditCreates = map[string]string{
	"createOrganizationInvite":        "invite",
	"createOrganizationTeam":          "team",
	"createOrganizationSAMLProvider":  "saml-provider",
	"createCollection":                "collection",
	"createSpace":                     "space",
	"duplicateSpace":                  "space",
	"createChangeRequest":             "change-request",
	"submitChangeRequestReview":       "review",
	"postCommentInSpace":              "comment",
	"postCommentReplyInSpace":         "comment-reply",
	"postCommentInChangeRequest":      "comment",
	"postCommentReplyInChangeRequest": "comment-reply",
	"createSite":                      "site",
	"addSpaceToSite":                  "site-space",
	"addSectionToSite":                "site-section",
	"addSectionGroupToSite":           "site-section-group",
	"createSiteRedirect":              "site-redirect",
	"createSiteShareLink":             "site-share-link",
	"createTranslation":               "translation",
	"createOpenAPISpec":               "openapi-spec",
	"installIntegration":              "installation",
	"startImportRun":                  "import-run",
}

// maxCreatedAnswer bounds what is kept of a creation's answer to read its id.
const maxCreatedAnswer = 256 << 10

// answerCapture holds back an answer's body (up to maxCreatedAnswer; past it, it sends on) so
// that the event names what was made before the client has the answer.
type answerCapture struct {
	http.ResponseWriter
	buf      bytes.Buffer
	overflow bool
}

func (w *answerCapture) Write(b []byte) (int, error) {
	if !w.overflow && w.buf.Len()+len(b) <= maxCreatedAnswer {
		return w.buf.Write(b)
	}
	if !w.overflow {
		w.overflow = true
		if _, err := w.ResponseWriter.Write(w.buf.Bytes()); err != nil {
			return 0, err
		}
	}
	return w.ResponseWriter.Write(b)
}

// send sends what was held back.
func (w *answerCapture) send() error {
	if w.overflow || w.buf.Len() == 0 {
		return nil
	}
	_, err := w.ResponseWriter.Write(w.buf.Bytes())
	return err
}

// auditCreated runs a creation and, when it was recorded and answered, makes what it made its
// event's target, then sends the answer.
func (s *Server) auditCreated(c echo.Context, next echo.HandlerFunc, r *store.AuditRecord, kind string) error {
	res := c.Response()
	capture := &answerCapture{ResponseWriter: res.Writer}
	res.Writer = capture
	err := next(c)
	res.Writer = capture.ResponseWriter
	if err == nil && res.Status >= 200 && res.Status <= 299 && r.Recorded() && !capture.overflow {
		var made struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(capture.buf.Bytes(), &made) == nil && made.ID != "" {
			ctx := context.WithoutCancel(c.Request().Context())
			if err := s.Store.SetAuditTarget(ctx, r.ID, store.AuditParty{Type: kind, ID: made.ID}); err != nil {
				s.Log.ErrorContext(ctx, "audit: naming a creation's target failed", "event", r.ID, "err", err)
			}
		}
	}
	if serr := capture.send(); err == nil {
		err = serr
	}
	return err
}

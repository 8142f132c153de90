package server_test

import (
	"testing"
)

// The rows of comments: two families with the same rules, on a space's content and on a change
// request's. Reading takes the read role on the space, posting and replying the comment role.
// The comments and replies the rows target are the commenter's: only the author edits a body
// (so the editor and the admin are refused), the author or a space admin deletes.
//
// A want lists the statuses for the callers: none, garbage, outsider, reader, commenter, editor, admin.

// matrixThread is where a family's operations act: its base path, a comment and a reply on it.
type matrixThread struct {
	base, comment, reply string
}

func matrixCommentRows() []matrixRow {
	families := []struct {
		in     string // the suffix of the family's operation ids
		thread func(w *matrixWorld) matrixThread
	}{
		{"Space", func(w *matrixWorld) matrixThread { return matrixThread{w.spaceBase(), w.comment, w.reply} }},
		{"ChangeRequest", func(w *matrixWorld) matrixThread { return matrixThread{w.crBase(), w.crComment, w.crReply} }},
	}
	ops := []struct {
		op    string // the operation id without its family's suffix
		want  matrixWant
		build func(t *testing.T, w *matrixWorld, th matrixThread) matrixRequest
	}{
		{"listCommentsIn", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, th matrixThread) matrixRequest {
			return matrixReq("GET", th.base+"/comments", nil)
		}},
		{"postCommentIn", matrixWant{401, 401, 404, 403, 200, 200, 200}, func(t *testing.T, w *matrixWorld, th matrixThread) matrixRequest {
			return matrixReq("POST", th.base+"/comments", map[string]any{"body": map[string]any{"markdown": "A remark."}})
		}},
		{"getCommentIn", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, th matrixThread) matrixRequest {
			return matrixReq("GET", th.base+"/comments/"+th.comment, nil)
		}},
		{"updateCommentIn", matrixWant{401, 401, 404, 403, 200, 403, 403}, func(t *testing.T, w *matrixWorld, th matrixThread) matrixRequest {
			return matrixReq("PUT", th.base+"/comments/"+th.comment, map[string]any{"body": map[string]any{"markdown": "Edited."}})
		}},
		{"deleteCommentIn", matrixWant{401, 401, 404, 403, 204, 403, 204}, func(t *testing.T, w *matrixWorld, th matrixThread) matrixRequest {
			path := th.base + "/comments/" + w.freshComment(t, th.base)
			r := matrixReq("DELETE", path, nil)
			r.gone = func(t *testing.T) bool { return w.status(t, path) == 404 }
			return r
		}},
		{"listCommentRepliesIn", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, th matrixThread) matrixRequest {
			return matrixReq("GET", th.base+"/comments/"+th.comment+"/replies", nil)
		}},
		{"postCommentReplyIn", matrixWant{401, 401, 404, 403, 200, 200, 200}, func(t *testing.T, w *matrixWorld, th matrixThread) matrixRequest {
			return matrixReq("POST", th.base+"/comments/"+th.comment+"/replies", map[string]any{"body": map[string]any{"markdown": "Agreed."}})
		}},
		{"getCommentReplyIn", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, th matrixThread) matrixRequest {
			return matrixReq("GET", th.base+"/comments/"+th.comment+"/replies/"+th.reply, nil)
		}},
		{"updateCommentReplyIn", matrixWant{401, 401, 404, 403, 200, 403, 403}, func(t *testing.T, w *matrixWorld, th matrixThread) matrixRequest {
			return matrixReq("PUT", th.base+"/comments/"+th.comment+"/replies/"+th.reply, map[string]any{"body": map[string]any{"markdown": "Edited."}})
		}},
		{"deleteCommentReplyIn", matrixWant{401, 401, 404, 403, 204, 403, 204}, func(t *testing.T, w *matrixWorld, th matrixThread) matrixRequest {
			path := th.base + "/comments/" + th.comment + "/replies/" + w.freshReply(t, th.base, th.comment)
			r := matrixReq("DELETE", path, nil)
			r.gone = func(t *testing.T) bool { return w.status(t, path) == 404 }
			return r
		}},
		{"listCommentersIn", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, th matrixThread) matrixRequest {
			return matrixReq("GET", th.base+"/commenters", nil)
		}},
	}
	var rows []matrixRow
	for _, f := range families {
		for _, o := range ops {
			f, o := f, o
			rows = append(rows, matrixRow{o.op + f.in, o.want, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
				return o.build(t, w, f.thread(w))
			}})
		}
	}
	return rows
}

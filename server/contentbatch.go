package server

import (
	"context"
	"encoding/base64"
	"fmt"
	"mime"
	"path"
	"strings"
	"sync"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/condition"
	"github.com/quire-docs/quire/internal/markdown"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// The content batch (updateChangeRequestContent) in GitBook's 0.202.0 shape: changes told apart
// by `operation`, page metadata and markdown frontmatter, files inline or fetched by URL, and two
// answers (the change request, or with compat=false the batch's outcomes).

const (
	maxInlineFile  = 1 << 20  // a base64 file, decoded
	maxBatchFetch  = 64 << 20 // all the files of one batch fetched by URL
	fetchParallels = 4
)

func (s *Server) UpdateChangeRequestContent(ctx context.Context, req gen.UpdateChangeRequestContentRequestObject) (gen.UpdateChangeRequestContentResponseObject, error) {
	// The space is read here for the caller's access; the change request (by id or number) only
	// inside the store's write, which answers it as the batch left it.
	sp, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleEdit)
	if err != nil {
		return nil, err
	}
	changes := make([]store.PageChange, len(req.Body.Changes))
	var fetches []pendingFetch
	for i, c := range req.Body.Changes {
		pc, pending, err := toPageChange(i, c, sp.ID)
		if err != nil {
			return nil, err
		}
		changes[i], fetches = pc, append(fetches, pending...)
	}
	if err := s.checkLinkSpaces(ctx, changes); err != nil {
		return nil, err
	}
	if err := s.fetchFiles(ctx, changes, fetches); err != nil {
		return nil, err
	}
	res, err := s.Store.UpdateChangeRequestContent(ctx, sp.ID, req.ChangeRequestId, access.Caller(ctx).ID, changes)
	if err != nil {
		return nil, err
	}
	cr := res.ChangeRequest
	apiCR, err := s.toAPIChangeRequest(cr)
	if err != nil {
		return nil, err
	}
	var out gen.UpdateChangeRequestContent200JSONResponse
	if req.Params.Compat == nil || *req.Params.Compat {
		err = (*gen.UpdateChangeRequestContentResult)(&out).FromChangeRequest(apiCR)
		return out, err
	}
	update := gen.ChangeRequestContentUpdate{ChangeRequest: apiCR, Changes: []gen.ChangeRequestContentUpdateChange{},
		InsertedFiles: []gen.RevisionFile{}}
	for _, o := range res.Pages {
		var ch gen.ChangeRequestContentUpdateChange
		ref := gen.ChangeRequestContentUpdatePageRef{Object: gen.ChangeRequestContentUpdatePageRefObjectPage, Id: o.PageID}
		ref.Urls.Location = s.apiURL("/spaces/" + sp.ID + "/change-requests/" + cr.ID + "/content/page/" + o.PageID)
		switch o.Kind {
		case "created":
			err = ch.FromChangeRequestContentUpdateInsertedPage(gen.ChangeRequestContentUpdateInsertedPage{
				Object: gen.CreatedPage, Ref: o.Ref, Page: ref})
		case "updated":
			err = ch.FromChangeRequestContentUpdateUpdatedPage(gen.ChangeRequestContentUpdateUpdatedPage{
				Object: gen.UpdatedPage, Page: ref})
		default:
			err = ch.FromChangeRequestContentUpdateDeletedPage(gen.ChangeRequestContentUpdateDeletedPage{
				Object: gen.DeletedPage, Page: o.PageID})
		}
		if err != nil {
			return nil, err
		}
		update.Changes = append(update.Changes, ch)
	}
	for _, f := range res.Files {
		update.InsertedFiles = append(update.InsertedFiles, s.toAPIFile(f))
	}
	if len(res.Reusable) > 0 {
		rcs := make([]gen.ChangeRequestContentUpdateReusableContent, len(res.Reusable))
		for k, o := range res.Reusable {
			rcs[k] = gen.ChangeRequestContentUpdateReusableContent{Kind: gen.ChangeRequestContentUpdateReusableContentKind(o.Kind), Id: o.ID, Ref: o.Ref}
		}
		update.ReusableContents = &rcs
	}
	err = (*gen.UpdateChangeRequestContentResult)(&out).FromChangeRequestContentUpdate(update)
	return out, err
}

func (m pageMeta) apply(pc *store.PageChange) {
	pc.Title, pc.Slug, pc.Emoji, pc.Icon, pc.Description, pc.Condition = m.Title, m.Slug, m.Emoji, m.Icon, m.Description, m.Condition
	pc.Hidden, pc.NoIndex, pc.NoRobotsIndex = m.Hidden, m.NoIndex, m.NoRobotsIndex
}

// pendingFetch is a file of the batch to fetch from a URL before the batch is applied.
type pendingFetch struct {
	change, file int
	url          string
}

// toPageChange reads one change of the batch.
func toPageChange(i int, c gen.ChangeRequestContentChange, spaceID string) (store.PageChange, []pendingFetch, error) {
	op, err := c.Discriminator()
	if err != nil {
		return store.PageChange{}, nil, batchError(i, "operation", "%s", err.Error())
	}
	pc := store.PageChange{Type: op}
	switch op {
	case "insert_page":
		v, err := c.AsChangeRequestContentChangeInsertPage()
		if err != nil {
			return pc, nil, batchError(i, "", "%s", err.Error())
		}
		meta := pageMeta{v.Title, v.Slug, v.Emoji, v.Icon, v.Description, v.Condition, v.Hidden, v.NoIndex, v.NoRobotsIndex}
		if v.Type != nil && *v.Type != gen.PageCreateTypeDocument {
			kind := string(*v.Type)
			pc.PageType = &kind
		}
		if v.Document != nil {
			if pc.Markdown, err = batchPageDocument(i, v.Document, spaceID, &meta, true); err != nil {
				return pc, nil, err
			}
		} else if pc.PageType == nil {
			return pc, nil, batchError(i, "document", "is required for a document page")
		}
		meta.apply(&pc)
		pc.Ref, pc.At, pc.LinkTitle = v.Ref, v.At, v.LinkTitle
		if v.Cover != nil {
			if pc.Cover, err = pageCover(i, *v.Cover); err != nil {
				return pc, nil, err
			}
			pc.SetCover = true
		}
		if pc.Target, err = toLinkTarget(i, v.Target); err != nil {
			return pc, nil, err
		}
		if v.Into != nil {
			pc.SetInto, pc.Into = true, v.Into
		}
	case "update_page":
		v, err := c.AsChangeRequestContentChangeUpdatePage()
		if err != nil {
			return pc, nil, batchError(i, "", "%s", err.Error())
		}
		meta := pageMeta{v.Title, v.Slug, v.Emoji, v.Icon, v.Description, v.Condition, v.Hidden, v.NoIndex, v.NoRobotsIndex}
		if v.Document != nil {
			if pc.Markdown, err = batchPageDocument(i, v.Document, spaceID, &meta, false); err != nil {
				return pc, nil, err
			}
		}
		meta.apply(&pc)
		page := v.Page
		pc.Page, pc.At, pc.LinkTitle = &page, v.At, v.LinkTitle
		if v.Cover.IsSpecified() {
			pc.SetCover = true
			if cover, err := v.Cover.Get(); err == nil {
				if pc.Cover, err = pageCover(i, cover); err != nil {
					return pc, nil, err
				}
			}
		}
		if pc.Target, err = toLinkTarget(i, v.Target); err != nil {
			return pc, nil, err
		}
		if v.Into.IsSpecified() {
			pc.SetInto = true
			if into, err := v.Into.Get(); err == nil {
				pc.Into = &into
			}
		}
	case "delete_page":
		v, err := c.AsChangeRequestContentChangeDeletePage()
		if err != nil {
			return pc, nil, batchError(i, "", "%s", err.Error())
		}
		pc.Page = &v.Page
	case "revert_page":
		v, err := c.AsChangeRequestContentChangeRevertPage()
		if err != nil {
			return pc, nil, batchError(i, "", "%s", err.Error())
		}
		pc.Page, pc.Revision = &v.Page, v.Revision
		if v.Block != nil {
			if len(*v.Block) > 0 {
				return pc, nil, batchError(i, "block", "reverting single blocks is not supported; revert the whole page")
			}
		}
	case "insert_files":
		v, err := c.AsChangeRequestContentChangeInsertFiles()
		if err != nil {
			return pc, nil, batchError(i, "", "%s", err.Error())
		}
		var pending []pendingFetch
		for j, f := range v.Files {
			field := fmt.Sprintf("files[%d]", j)
			up := store.FileUpload{Ref: f.Ref, Name: f.Name}
			if f.ContentType != nil {
				up.ContentType = *f.ContentType
			}
			switch {
			case f.Base64 != nil && f.Url != nil:
				return pc, nil, batchError(i, field, "give exactly one of base64 or url, not both")
			case f.Base64 == nil && f.Url == nil:
				return pc, nil, batchError(i, field, "give exactly one of base64 or url")
			case f.Base64 != nil:
				if f.ContentType == nil {
					return pc, nil, batchError(i, field+".contentType", "is required with base64")
				}
				data, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(*f.Base64), ""))
				if err != nil {
					return pc, nil, batchError(i, field+".base64", "is not valid base64")
				}
				if len(data) > maxInlineFile {
					return pc, nil, batchError(i, field+".base64", "%q is %d bytes once decoded, over the 1 MiB limit; give a url instead", f.Name, len(data))
				}
				up.Data = data
			default:
				pending = append(pending, pendingFetch{change: i, file: j, url: *f.Url})
			}
			pc.Files = append(pc.Files, up)
		}
		return pc, pending, nil
	case "insert_reusable_content":
		v, err := c.AsChangeRequestContentChangeInsertReusableContent()
		if err != nil {
			return pc, nil, batchError(i, "", "%s", err.Error())
		}
		pc.Ref, pc.Title = v.Ref, &v.Title
		if pc.Markdown, err = reusableDocument(i, v.Document, spaceID, &pc); err != nil {
			return pc, nil, err
		}
	case "update_reusable_content":
		v, err := c.AsChangeRequestContentChangeUpdateReusableContent()
		if err != nil {
			return pc, nil, batchError(i, "", "%s", err.Error())
		}
		pc.ReusableContent, pc.Title = &v.ReusableContent, v.Title
		if pc.Markdown, err = reusableDocument(i, v.Document, spaceID, &pc); err != nil {
			return pc, nil, err
		}
	case "delete_reusable_content":
		v, err := c.AsChangeRequestContentChangeDeleteReusableContent()
		if err != nil {
			return pc, nil, batchError(i, "", "%s", err.Error())
		}
		pc.ReusableContent = &v.ReusableContent
	default:
		return pc, nil, batchError(i, "operation", "unknown operation %q", op)
	}
	if pc.Condition != nil && *pc.Condition != "" {
		if _, err := condition.Parse(*pc.Condition); err != nil {
			return pc, nil, batchError(i, "condition", "%s", err.Error())
		}
	}
	return pc, nil, nil
}

// batchPageDocument is the markdown a change gives its page: markdown as sent (its frontmatter read
// into meta), a rich-text document as the markdown it converts to (its metadata is the change's
// fields; a block condition is refused), {} an empty page. An inserted page left without a title is "Untitled".
func batchPageDocument(i int, in *gen.PageDocumentInput, spaceID string, meta *pageMeta, insert bool) (*string, error) {
	md := ""
	switch {
	case in.Markdown != nil && in.Document != nil:
		return nil, batchError(i, "document", "give markdown or document, not both")
	case in.Markdown != nil:
		md = *in.Markdown
		if err := readMarkdown(i, &md, meta, insert); err != nil {
			return nil, err
		}
	case in.Document != nil:
		// A page's markdown cannot hold a block shown to some visitors only: written out, its
		// content would be shown to all of them.
		if at, found := markdown.Find(in.Document, "if"); found {
			return nil, batchError(i, "document.document."+at, "a block condition (if) cannot be kept in a page; give the content a page of its own with a condition")
		}
		md = markdown.Options{SpaceID: spaceID}.ToMarkdown(in.Document)
	}
	if insert && meta.Title == nil {
		untitled := "Untitled"
		meta.Title = &untitled
	}
	return &md, nil
}

// reusableDocument is the markdown a change gives a reusable content, read as a page's (nil: none
// given); a title in its frontmatter is the content's when the change gives none.
func reusableDocument(i int, in *gen.PageDocumentInput, spaceID string, pc *store.PageChange) (*string, error) {
	if in == nil {
		return nil, nil
	}
	meta := pageMeta{Title: pc.Title}
	md, err := batchPageDocument(i, in, spaceID, &meta, false)
	if err != nil {
		return nil, err
	}
	pc.Title = meta.Title
	return md, nil
}

// fetchFiles fetches the batch's files given by URL, a few at a time, through the guarded
// fetcher. The first failure names its change and file and fails the batch.
func (s *Server) fetchFiles(ctx context.Context, changes []store.PageChange, pending []pendingFetch) error {
	if len(pending) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(pending))
	var mu sync.Mutex
	total := 0
	sem := make(chan struct{}, fetchParallels)
	var wg sync.WaitGroup
	for k, p := range pending {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			field := fmt.Sprintf("files[%d].url", p.file)
			res, err := s.Fetcher.Get(ctx, p.url)
			if err != nil {
				if ctx.Err() != nil && errs[k] == nil {
					err = fmt.Errorf("not fetched: another file of the batch failed")
				}
				errs[k] = batchError(p.change, field, "%s", err.Error())
				cancel()
				return
			}
			mu.Lock()
			total += len(res.Body)
			over := total > maxBatchFetch
			mu.Unlock()
			if over {
				errs[k] = batchError(p.change, field, "the batch's files pass %d MiB in all", maxBatchFetch>>20)
				cancel()
				return
			}
			f := &changes[p.change].Files[p.file]
			f.Data = res.Body
			if f.ContentType == "" {
				f.ContentType = fetchedType(res.ContentType, f.Name)
			}
		}()
	}
	wg.Wait()
	// Report the first failure in batch order, preferring a real cause to a cancellation.
	var first error
	for _, err := range errs {
		if err != nil && !strings.Contains(err.Error(), "another file of the batch failed") {
			return err
		}
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

// fetchedType is the content type of a fetched file: the server's, else the name's, else bytes.
func fetchedType(header, name string) string {
	if mt, _, err := mime.ParseMediaType(header); err == nil && strings.Contains(mt, "/") {
		return mt
	}
	if mt := mime.TypeByExtension(path.Ext(name)); mt != "" {
		if base, _, err := mime.ParseMediaType(mt); err == nil {
			return base
		}
	}
	return "application/octet-stream"
}

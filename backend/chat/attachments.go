package chat

import (
	"fmt"
	"slices"
)

// AttachmentRules are what one provider accepts in the files, resources and
// tool-result images a request carries: which types, how large each may
// be, how many and how much in one request. Each adapter declares its own
// (AttachmentRules in its dialect.go, with the source of every number in
// docs/providers/) and applies them with Fit before it renders a request,
// so that a request the provider would refuse for its attachments is
// never sent. A zero limit is no limit.
type AttachmentRules struct {
	// Provider is the provider's name (ProviderAnthropic…); Label is how
	// a message names it ("Claude").
	Provider string
	Label    string
	// Images, Documents, Audio and Video list the MIME types sent as
	// media of that kind. Text of any type IsTextType takes is sent as
	// text by every adapter. Any other type is refused.
	Images, Documents, Audio, Video []string

	// MaxImageBase64 bounds one image, measured as base64 (Anthropic's
	// 5 MB); MaxImageBytes bounds it decoded.
	MaxImageBase64 int64
	MaxImageBytes  int64
	// MaxImageSide is the longest side, in pixels. A request with more
	// than ManyImages images takes MaxImageSideMany at most.
	MaxImageSide     int
	ManyImages       int
	MaxImageSideMany int
	// MaxImages bounds the images of a request, MaxImageTotal their bytes
	// (decoded), MaxMedia its images and document pages together.
	MaxImages     int
	MaxImageTotal int64
	MaxMedia      int
	// MaxDocumentBytes bounds one document (decoded), MaxDocumentTotal all
	// of a request's.
	MaxDocumentBytes int64
	MaxDocumentTotal int64
	// MaxInline bounds the base64 of everything inline in a request.
	MaxInline int64
	// MaxRequest bounds the encoded request body; the adapter checks it
	// with CheckRequestSize once the body is written.
	MaxRequest int64
	// Source is where the numbers come from, for messages and readers.
	Source string
}

// AttachmentChecker is a model adapter that declares its attachment rules
// (every adapter does, for the model and mode it serves), so the app can
// check attachments while the user composes, before anything is sent.
type AttachmentChecker interface {
	AttachmentRules(info ModelInfo) AttachmentRules
}

// AttachmentError is an attachment of the user's message that the
// provider would refuse, found before anything was sent. It is ErrInvalid:
// the user removes or shrinks the attachment, or picks another model.
type AttachmentError struct {
	Provider string
	// Name is the attachment's file name or resource label ("" for a
	// request-wide limit).
	Name string
	// Limit names the rule broken, as in AttachmentRules
	// ("MaxImageBase64", "MaxMedia", "type"…).
	Limit string
	// Detail is the whole sentence shown to the user.
	Detail string
}

func (e *AttachmentError) Error() string { return e.Detail }
func (e *AttachmentError) Unwrap() error { return ErrInvalid }

// CheckRequestSize returns an *AttachmentError when an encoded request body
// of n bytes is over MaxRequest.
func (r AttachmentRules) CheckRequestSize(n int) error {
	if r.MaxRequest <= 0 || int64(n) <= r.MaxRequest {
		return nil
	}
	return &AttachmentError{Provider: r.Provider, Limit: "MaxRequest",
		Detail: fmt.Sprintf("this request is %s and %s takes at most %s in one request: remove attachments from the conversation or start a new chat",
			HumanSize(int64(n)), r.Label, HumanSize(r.MaxRequest))}
}

// Fit returns msgs as they may be sent under r. An attachment of the
// latest user message that breaks a rule is an *AttachmentError: the user
// sent it and decides. One of an earlier message (a file sent to another
// provider before the session switched, a tool's image) is replaced by a
// note saying what was left out and why, and so is the oldest such one
// while the request as a whole is over a limit; the notes are also
// returned as warnings. A resource whose bytes are of a type the provider
// does not take is always noted, never refused: the model is told the
// resource exists. msgs is not modified; messages that change are copied.
func (r AttachmentRules) Fit(msgs []Message) ([]Message, []string, error) {
	items := collectMedia(msgs)
	latest := lastUser(msgs)
	drop := map[int]string{}
	for i, it := range items {
		p := r.itemProblem(it)
		if p == nil {
			continue
		}
		if it.msg == latest && it.owned() && !p.noteOnly {
			return nil, nil, r.errorFor(it, p)
		}
		drop[i] = p.note
	}
	for {
		p, candidates := r.requestProblem(items, drop)
		if p == nil {
			break
		}
		victim := slices.IndexFunc(candidates, func(i int) bool { return items[i].msg != latest || !items[i].owned() })
		if victim < 0 {
			return nil, nil, r.errorFor(media{}, p)
		}
		drop[candidates[victim]] = p.note
	}
	if len(drop) == 0 {
		return msgs, nil, nil
	}
	return applyDrops(msgs, items, drop)
}

// lastUser is the index of the latest user message, -1 if none.
func lastUser(msgs []Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == RoleUser {
			return i
		}
	}
	return -1
}

// problem is a broken rule: its name, the user's sentence, and the note
// that stands in for a left-out attachment.
type problem struct {
	limit, detail, note string
	// noteOnly: never an error (a resource of a type the provider does
	// not take).
	noteOnly bool
}

func (r AttachmentRules) errorFor(it media, p *problem) error {
	return &AttachmentError{Provider: r.Provider, Name: it.name, Limit: p.limit, Detail: p.detail}
}

func (r AttachmentRules) limitProblem(limit string, it media, what, got string, max string) *problem {
	who := "this request's attachments"
	if it.name != "" || it.mime != "" {
		who = fmt.Sprintf("%q (%s)", it.label(), it.mime)
	}
	return &problem{limit: limit,
		detail: fmt.Sprintf("%s: %s %s; %s takes at most %s", who, got, what, r.Label, max),
		note:   fmt.Sprintf("%s takes at most %s %s", r.Label, max, what)}
}

// itemProblem checks one attachment on its own: its type, size and pixels.
func (r AttachmentRules) itemProblem(it media) *problem {
	if it.missing {
		return &problem{limit: "missing", note: "its bytes are no longer stored",
			detail: fmt.Sprintf("%q: its bytes are no longer stored; remove it and attach it again", it.label())}
	}
	switch r.kind(it.mime) {
	case kindImage:
		return r.imageProblem(it)
	case kindDocument:
		if r.MaxDocumentBytes > 0 && it.bytes > r.MaxDocumentBytes {
			return r.limitProblem("MaxDocumentBytes", it, "per document", HumanSize(it.bytes), HumanSize(r.MaxDocumentBytes))
		}
	case kindOther:
		p := &problem{limit: "type", noteOnly: it.resource,
			detail: fmt.Sprintf("%q: %s does not take files of type %s", it.label(), r.Label, it.mime),
			note:   fmt.Sprintf("%s does not take %s", r.Label, it.mime)}
		return p
	}
	return nil
}

func (r AttachmentRules) imageProblem(it media) *problem {
	switch {
	case r.MaxImageBase64 > 0 && it.b64 > r.MaxImageBase64:
		return r.limitProblem("MaxImageBase64", it, "of base64 per image", HumanSize(it.b64), HumanSize(r.MaxImageBase64))
	case r.MaxImageBytes > 0 && it.bytes > r.MaxImageBytes:
		return r.limitProblem("MaxImageBytes", it, "per image", HumanSize(it.bytes), HumanSize(r.MaxImageBytes))
	case r.MaxImageSide > 0 && it.side > r.MaxImageSide:
		return r.limitProblem("MaxImageSide", it, "pixels on a side", fmt.Sprint(it.side), fmt.Sprint(r.MaxImageSide))
	}
	return nil
}

type mediaKind int

const (
	kindText mediaKind = iota
	kindImage
	kindDocument
	kindAudio
	kindVideo
	kindOther
)

// kind is how the provider takes content of this MIME type.
func (r AttachmentRules) kind(mime string) mediaKind {
	mime = BaseType(mime)
	switch {
	case slices.Contains(r.Images, mime):
		return kindImage
	case slices.Contains(r.Documents, mime):
		return kindDocument
	case slices.Contains(r.Audio, mime):
		return kindAudio
	case slices.Contains(r.Video, mime):
		return kindVideo
	case IsTextType(mime):
		return kindText
	}
	return kindOther
}

// Kind names how the provider takes content of this MIME type: "image",
// "document", "audio", "video", "text", or "" when it does not take it.
func (r AttachmentRules) Kind(mime string) string {
	return [...]string{"text", "image", "document", "audio", "video", ""}[r.kind(mime)]
}

// requestProblem checks the request as a whole, without the dropped
// attachments: it returns the first limit broken and the attachments that
// count toward it, oldest first (the ones to leave out first).
func (r AttachmentRules) requestProblem(items []media, drop map[int]string) (*problem, []int) {
	var images, docs, inline []int
	var nImages, nMedia, imageBytes, docBytes, inlineB64 int64
	for i, it := range items {
		if _, gone := drop[i]; gone || it.b64 == 0 && !it.byURL {
			continue
		}
		switch r.kind(it.mime) {
		case kindImage:
			images = append(images, i)
			nImages++
			nMedia++
			imageBytes += it.bytes
		case kindDocument:
			docs = append(docs, i)
			nMedia += int64(it.pages)
			docBytes += it.bytes
		}
		if it.b64 > 0 {
			inline = append(inline, i)
			inlineB64 += it.b64
		}
	}
	all := func(n, max int64) bool { return max > 0 && n > max }
	switch {
	case all(nImages, int64(r.MaxImages)):
		return r.limitProblem("MaxImages", media{}, "images in one request", fmt.Sprint(nImages), fmt.Sprint(r.MaxImages)), images
	case all(nMedia, int64(r.MaxMedia)):
		return r.limitProblem("MaxMedia", media{}, "images and document pages in one request", fmt.Sprint(nMedia), fmt.Sprint(r.MaxMedia)), slices.Concat(images, docs)
	case all(imageBytes, r.MaxImageTotal):
		return r.limitProblem("MaxImageTotal", media{}, "of images in one request", HumanSize(imageBytes), HumanSize(r.MaxImageTotal)), images
	case all(docBytes, r.MaxDocumentTotal):
		return r.limitProblem("MaxDocumentTotal", media{}, "of documents in one request", HumanSize(docBytes), HumanSize(r.MaxDocumentTotal)), docs
	case all(inlineB64, r.MaxInline):
		return r.limitProblem("MaxInline", media{}, "of attachments (as base64) in one request", HumanSize(inlineB64), HumanSize(r.MaxInline)), inline
	}
	return r.manyImagesProblem(items, images)
}

// manyImagesProblem applies the smaller side limit of requests with many
// images: it returns the images over it, then every image (leaving one
// out brings the count down).
func (r AttachmentRules) manyImagesProblem(items []media, images []int) (*problem, []int) {
	if r.ManyImages <= 0 || len(images) <= r.ManyImages {
		return nil, nil
	}
	var big []int
	for _, i := range images {
		if items[i].side > r.MaxImageSideMany {
			big = append(big, i)
		}
	}
	if len(big) == 0 {
		return nil, nil
	}
	p := &problem{limit: "MaxImageSideMany",
		detail: fmt.Sprintf("with more than %d images in one request, %s takes images of at most %d pixels on a side; %q is %d",
			r.ManyImages, r.Label, r.MaxImageSideMany, items[big[0]].label(), items[big[0]].side),
		note: fmt.Sprintf("%s takes at most %d pixels on a side when a request has more than %d images", r.Label, r.MaxImageSideMany, r.ManyImages)}
	return p, slices.Concat(big, images)
}

// HumanSize is n bytes in words: "512 bytes", "1.5 KiB", "12 MiB".
func HumanSize(n int64) string {
	switch {
	case n >= 10<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 10<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}

package mcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
)

// Roots: the folders each session offers to servers (roots/list), shared
// by every server the supervisor runs.

// Root is a folder the user chose for a session.
type Root struct {
	Path string `json:"path"`
	Name string `json:"name,omitempty"`
}

// SetRoots sets the folders a session's user chose. A server sees the
// roots of every session (servers are shared between sessions; see the
// package doc), and each ready server that declared interest is sent
// notifications/roots/list_changed when that set changes. A nil or empty
// list clears the session's roots.
func (s *Supervisor) SetRoots(ctx context.Context, sessionID string, roots []Root) error {
	clean := make([]Root, 0, len(roots))
	for _, r := range roots {
		if !filepath.IsAbs(r.Path) {
			return chat.E(chat.ErrInvalid, "mcp: root %q is not an absolute path", r.Path)
		}
		clean = append(clean, Root{Path: filepath.Clean(r.Path), Name: r.Name})
	}
	s.mu.Lock()
	before := s.rootsLocked()
	if len(clean) == 0 {
		delete(s.roots, sessionID)
	} else {
		s.roots[sessionID] = clean
	}
	after := s.rootsLocked()
	var links []*link
	if !slices.Equal(before, after) {
		for _, r := range s.runners {
			r.mu.Lock()
			if r.link != nil {
				links = append(links, r.link)
			}
			r.mu.Unlock()
		}
	}
	s.mu.Unlock()
	var errs []error
	for _, l := range links {
		if err := l.client.RootListChanges(ctx); err != nil && !errors.Is(err, context.Canceled) {
			errs = append(errs, fmt.Errorf("%s: %w", l.cfg.DisplayName(), err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("mcp: announce roots: %w", err)
	}
	return nil
}

// Roots returns the roots servers see: every session's, without
// duplicates, sorted by path.
func (s *Supervisor) Roots() []Root {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rootsLocked()
}

func (s *Supervisor) rootsLocked() []Root {
	seen := map[string]bool{}
	var out []Root
	for _, list := range s.roots {
		for _, r := range list {
			if !seen[r.Path] {
				seen[r.Path] = true
				out = append(out, r)
			}
		}
	}
	slices.SortFunc(out, func(a, b Root) int { return cmp.Compare(a.Path, b.Path) })
	return out
}

// rootsResult renders the roots as file:// URIs.
func (s *Supervisor) rootsResult() *mcpgo.ListRootsResult {
	roots := s.Roots()
	res := &mcpgo.ListRootsResult{Roots: make([]mcpgo.Root, 0, len(roots))}
	for _, r := range roots {
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(r.Path)}
		res.Roots = append(res.Roots, mcpgo.Root{URI: u.String(), Name: cmp.Or(r.Name, filepath.Base(r.Path))})
	}
	return res
}

package core

import (
	"context"
	"iter"

	"github.com/mcpwasm/mcpwasm/internal/errf"
)

// MaxPages bounds the pages an iterator fetches, against servers that
// never stop paginating.
const MaxPages = 10000

// paginate yields every item of every page; page fetches one page for a
// cursor and returns its items and next cursor. A repeated cursor ends the
// iteration with ErrRepeatedCursor.
func paginate[T any](ctx context.Context, page func(ctx context.Context, cursor string) ([]T, string, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		seen := map[string]bool{}
		cursor := ""
		for n := 0; ; n++ {
			if n >= MaxPages {
				yield(zero, errf.Errorf("%w: more than %d pages", ErrRepeatedCursor, MaxPages))
				return
			}
			items, next, err := page(ctx, cursor)
			if err != nil {
				yield(zero, err)
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if next == "" {
				return
			}
			if seen[next] {
				yield(zero, errStr("%w: %q", ErrRepeatedCursor, next))
				return
			}
			seen[next] = true
			cursor = next
		}
	}
}

// collect gathers an iterator into a slice, stopping at the first error.
func collect[T any](seq iter.Seq2[T, error]) ([]T, error) {
	var out []T
	for it, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, it)
	}
	return out, nil
}

// Tools iterates over every tool of every page.
func (s *Session) Tools(ctx context.Context) iter.Seq2[*Tool, error] {
	return paginate(ctx, func(ctx context.Context, cursor string) ([]*Tool, string, error) {
		r, err := s.listTools(ctx, cursorParams(cursor))
		if err != nil {
			return nil, "", err
		}
		return r.Tools, r.NextCursor, nil
	})
}

// AllTools returns every tool of every page.
func (s *Session) AllTools(ctx context.Context) ([]*Tool, error) { return s.allTools(ctx) }

// allTools is collect(s.Tools(ctx)) as a plain loop: the range-over-func
// pagination inlined into it cost the modules several times the code.
func (s *Session) allTools(ctx context.Context) ([]*Tool, error) {
	var out []*Tool
	seen := map[string]bool{}
	cursor := ""
	for n := 0; ; n++ {
		if n >= MaxPages {
			return out, errf.Errorf("%w: more than %d pages", ErrRepeatedCursor, MaxPages)
		}
		r, err := s.listTools(ctx, cursorParams(cursor))
		if err != nil {
			return out, err
		}
		out = append(out, r.Tools...)
		next := r.NextCursor
		if next == "" {
			return out, nil
		}
		if seen[next] {
			return out, errStr("%w: %q", ErrRepeatedCursor, next)
		}
		seen[next] = true
		cursor = next
	}
}

// Resources iterates over every resource of every page.
func (s *Session) Resources(ctx context.Context) iter.Seq2[*Resource, error] {
	return paginate(ctx, func(ctx context.Context, cursor string) ([]*Resource, string, error) {
		r, err := s.ListResources(ctx, &PaginatedParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return r.Resources, r.NextCursor, nil
	})
}

// AllResources returns every resource of every page.
func (s *Session) AllResources(ctx context.Context) ([]*Resource, error) {
	return collect(s.Resources(ctx))
}

// ResourceTemplates iterates over every resource template of every page.
func (s *Session) ResourceTemplates(ctx context.Context) iter.Seq2[*ResourceTemplate, error] {
	return paginate(ctx, func(ctx context.Context, cursor string) ([]*ResourceTemplate, string, error) {
		r, err := s.ListResourceTemplates(ctx, &PaginatedParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return r.ResourceTemplates, r.NextCursor, nil
	})
}

// AllResourceTemplates returns every resource template of every page.
func (s *Session) AllResourceTemplates(ctx context.Context) ([]*ResourceTemplate, error) {
	return collect(s.ResourceTemplates(ctx))
}

// Prompts iterates over every prompt of every page.
func (s *Session) Prompts(ctx context.Context) iter.Seq2[*Prompt, error] {
	return paginate(ctx, func(ctx context.Context, cursor string) ([]*Prompt, string, error) {
		r, err := s.ListPrompts(ctx, &PaginatedParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return r.Prompts, r.NextCursor, nil
	})
}

// AllPrompts returns every prompt of every page.
func (s *Session) AllPrompts(ctx context.Context) ([]*Prompt, error) {
	return collect(s.Prompts(ctx))
}

// cursorParams encodes &PaginatedParams{Cursor: cursor}.
func cursorParams(cursor string) RawMessage {
	if cursor == "" {
		return RawMessage("{}")
	}
	return stringParams("cursor", cursor)
}

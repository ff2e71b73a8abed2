package core

import (
	"errors"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonschema"
)

// ErrElicitationContent is wrapped by *ElicitationContentError.
var ErrElicitationContent = errors.New("core: the elicitation answer does not match the requested schema")

// ElicitationContentError reports an accepted form elicitation whose
// content does not validate against the server's requestedSchema: the
// answer is not sent. A legacy server's request is answered with an error
// (and OnWarning is told); a modern call that needed the answer fails with
// an *InputError wrapping this.
type ElicitationContentError struct {
	Err error // a *jsonschema.ValidationError
}

func (e *ElicitationContentError) Error() string {
	return errf.Sprintf("%v: %v", ErrElicitationContent, e.Err)
}

// Unwrap returns ErrElicitationContent and the validation error.
func (e *ElicitationContentError) Unwrap() []error { return []error{ErrElicitationContent, e.Err} }

// checkElicitation validates an accepted form elicitation's content against
// the requested schema before it is sent. A schema that does not compile is
// the server's problem: the answer goes unchecked, with a warning.
func (s *Session) checkElicitation(p *ElicitParams, r *ElicitResult) error {
	if r.Action != ActionAccept || p.Mode == ElicitModeURL || len(p.RequestedSchema) == 0 || string(p.RequestedSchema) == "null" {
		return nil
	}
	sch, err := jsonschema.CompileWith(p.RequestedSchema, s.schemaOptions())
	if err != nil {
		s.warn(errf.Errorf("core: elicitation requestedSchema is unusable, the answer is not checked: %w", err))
		return nil
	}
	content := r.Content
	if content == nil {
		content = map[string]any{}
	}
	b, err := appendAny(nil, content)
	if err != nil {
		return errf.Errorf("core: encoding the elicitation answer: %w", err)
	}
	if err := sch.ValidateJSON(b); err != nil {
		cerr := &ElicitationContentError{Err: err}
		s.warn(cerr)
		return cerr
	}
	return nil
}

// schemaOptions are the options of the schemas the session compiles.
func (s *Session) schemaOptions() *jsonschema.Options {
	if s.client.opts.Pattern == nil {
		return nil
	}
	return &jsonschema.Options{Pattern: s.client.opts.Pattern}
}

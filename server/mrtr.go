package server

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/stdiotools/toolserver/internal/jsonwire"
)

// This file asks for confirmation in MCP 2026-07-28, where the server may
// not send the client a request: the call answers with a result of type
// input_required that holds the question (an elicitation/create form) and
// a sealed requestState; the client asks the user and sends the same call
// again, under a new id, with the answer in inputResponses and the state
// echoed back. The state is the client's to hold and so an attacker's to
// forge: it is sealed with HMAC-SHA256 over the tool, a hash of the
// arguments, a hash of what the change will do, an expiry and a nonce,
// and a nonce is accepted once.

// stateVersion starts every requestState.
const stateVersion = "v1"

// statePayload is what a requestState holds.
type statePayload struct {
	Expires int64  `json:"exp"`   // unix seconds
	Tool    string `json:"tool"`  // the tool called
	Args    string `json:"args"`  // sha256 of the arguments, canonical form
	Plan    string `json:"plan"`  // sha256 of the confirmation message: what the change does
	Nonce   string `json:"nonce"` // random, accepted once
}

// NonceStore remembers the nonces of the confirmations a server has
// accepted, so that each is accepted once. Set one in [Options.Nonces]
// that several processes share (see [DirNonces]) where they serve the same
// clients; the default remembers them in this process only.
type NonceStore interface {
	// Spend records nonce, whose state expires at expires (unix
	// seconds), and reports whether it was new.
	Spend(nonce string, expires int64) (bool, error)
}

// stateKeeper seals and opens request states and spends their nonces.
type stateKeeper struct {
	key    func() []byte // the key that seals the states
	now    func() time.Time
	nonces NonceStore
}

func newStateKeeper(key []byte, now func() time.Time, nonces NonceStore) *stateKeeper {
	secret := func() []byte { return key }
	if len(key) == 0 {
		// One process: a key of its own, made when a state is first
		// sealed or opened, which few sessions ever do. Made at start,
		// it was 1% of a start's CPU before its first answer (the first
		// use of crypto/rand sets up its generator).
		secret = sync.OnceValue(func() []byte {
			key := make([]byte, 32)
			_, _ = rand.Read(key)
			return key
		})
	}
	if nonces == nil {
		nonces = &memoryNonces{now: now, used: make(map[string]int64)}
	}
	return &stateKeeper{key: secret, now: now, nonces: nonces}
}

// memoryNonces is the NonceStore of one process.
type memoryNonces struct {
	now  func() time.Time
	mu   sync.Mutex
	used map[string]int64 // nonce → expiry
}

// Spend implements NonceStore; it forgets the nonces of expired states.
func (m *memoryNonces) Spend(nonce string, expires int64) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now().Unix()
	for n, exp := range m.used {
		if exp < now {
			delete(m.used, n)
		}
	}
	if _, dup := m.used[nonce]; dup {
		return false, nil
	}
	m.used[nonce] = expires
	return true, nil
}

// seal returns the requestState of p.
func (k *stateKeeper) seal(p statePayload) string {
	body, _ := json.Marshal(p)
	head := stateVersion + "." + base64.RawURLEncoding.EncodeToString(body)
	return head + "." + base64.RawURLEncoding.EncodeToString(k.mac(head))
}

func (k *stateKeeper) mac(head string) []byte {
	m := hmac.New(sha256.New, k.key())
	m.Write([]byte(head))
	return m.Sum(nil)
}

// open checks a requestState's seal and expiry and returns what it holds.
func (k *stateKeeper) open(state string) (statePayload, error) {
	var p statePayload
	i := strings.LastIndexByte(state, '.')
	if !strings.HasPrefix(state, stateVersion+".") || i <= len(stateVersion) {
		return p, errors.New("is not a requestState this server issued")
	}
	head, sig := state[:i], state[i+1:]
	got, err := base64.RawURLEncoding.Strict().DecodeString(sig) // strict: one spelling, so no character of it changes unnoticed
	if err != nil || !hmac.Equal(got, k.mac(head)) {
		return p, errors.New("failed verification")
	}
	body, err := base64.RawURLEncoding.DecodeString(head[len(stateVersion)+1:])
	if err != nil || json.Unmarshal(body, &p) != nil {
		return p, errors.New("failed verification")
	}
	if k.now().Unix() > p.Expires {
		return p, errors.New("has expired")
	}
	return p, nil
}

// inputRequired is the answer of a call that needs the user first: the
// result of type input_required, which answer writes as it is.
type inputRequired struct {
	message string
	state   string
}

func (e *inputRequired) Error() string { return "the call needs the user's answer: " + e.message }

// appendInputRequired appends the response line of an input_required
// result.
func appendInputRequired(b []byte, id json.RawMessage, e *inputRequired) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":{"resultType":"input_required","inputRequests":{"confirm":{"method":"elicitation/create","params":{"mode":"form","message":`...)
	b = appendString(b, e.message)
	b = append(b, `,"requestedSchema":{"type":"object","properties":{}}}}},"requestState":`...)
	b = appendString(b, e.state)
	return append(b, "}}\n"...)
}

// callError is an answer of a call that is a JSON-RPC error, not a
// result: a forged or stale requestState, a capability the request did
// not declare.
type callError struct{ protocolError }

func (e *callError) Error() string { return e.message }

// modernConfirm is Confirm for a call of MCP 2026-07-28 on a server that
// requires confirmations.
func (s *Server) modernConfirm(c *Call) func(context.Context, string) error {
	return func(ctx context.Context, message string) error {
		if !declares(c.capabilities, "elicitation") {
			data, _ := jsonwire.Marshal(map[string]any{"requiredCapabilities": map[string]any{"elicitation": map[string]any{}}})
			return &callError{protocolError{code: codeMissingCapabilities, data: data,
				message: "Missing required client capability: this server asks the user to confirm every change, through elicitation, which the request's clientCapabilities do not declare"}}
		}
		k := s.states
		plan := hash([]byte(message))
		args := hash(jsonwire.Canonical(c.args))
		if c.requestState != "" {
			p, err := k.open(c.requestState)
			switch {
			case err != nil:
				return badState("requestState %s; send the call again without requestState and inputResponses", err)
			case p.Tool != c.Tool || p.Args != args:
				return badState("requestState was issued for another call; send this one again without requestState and inputResponses")
			case p.Plan != plan:
				// What the change would do is not what the user was asked
				// about (the file changed meanwhile): ask again.
			default:
				action, ok, err := confirmAnswer(c.inputResponses)
				if err != nil {
					return err
				}
				if !ok {
					break // no answer: ask again
				}
				fresh, err := k.nonces.Spend(p.Nonce, p.Expires)
				if err != nil {
					return Internal(fmt.Errorf("spend the nonce of a confirmation: %w", err))
				}
				if !fresh {
					return badState("requestState was used already; send the call again without requestState and inputResponses")
				}
				switch action {
				case "accept":
					return nil
				case "decline":
					return refusal(say(c.Lang(), msgDeclined))
				default:
					return refusal(say(c.Lang(), msgDismissed))
				}
			}
		}
		nonce := make([]byte, 16)
		_, _ = rand.Read(nonce)
		state := k.seal(statePayload{Expires: k.now().Add(s.opts.ConfirmTimeout).Unix(), Tool: c.Tool, Args: args, Plan: plan, Nonce: hex.EncodeToString(nonce)})
		return &inputRequired{message: message, state: state}
	}
}

// confirmAnswer reads the action of the "confirm" answer in
// inputResponses; ok is false when there is none.
func confirmAnswer(responses json.RawMessage) (action string, ok bool, err error) {
	if len(responses) == 0 {
		return "", false, nil
	}
	var r map[string]json.RawMessage
	if json.Unmarshal(responses, &r) != nil {
		return "", false, badParams(`"inputResponses" must be an object of answers, such as {"confirm":{"action":"accept"}}`).asCallError()
	}
	raw, ok := r["confirm"]
	if !ok {
		return "", false, nil
	}
	var a struct {
		Action string `json:"action"`
	}
	if json.Unmarshal(raw, &a) != nil || a.Action == "" {
		return "", false, badParams(`inputResponses["confirm"] must be an elicitation result such as {"action":"accept"}`).asCallError()
	}
	return a.Action, true, nil
}

// asCallError turns a -32602 of the reader into an answer of a call.
func (e *wireError) asCallError() error {
	return &callError{protocolError{code: e.code, message: e.message}}
}

// badState is the JSON-RPC error of a requestState that cannot be used.
func badState(format string, a ...any) error {
	return &callError{protocolError{code: jsonrpc2.CodeInvalidParams, message: "Invalid params: " + fmt.Sprintf(format, a...)}}
}

// declares reports whether the capabilities object has the member name.
func declares(caps json.RawMessage, name string) bool {
	if len(caps) == 0 || caps[0] != '{' {
		return false
	}
	var buf [8]member
	for _, m := range appendMembers(buf[:0], caps) {
		if m.name == name && !bytes.Equal(m.value, []byte("null")) {
			return true
		}
	}
	return false
}

// hash is the hex SHA-256 of b.
func hash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

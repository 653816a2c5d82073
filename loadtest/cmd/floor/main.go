// Command floor is the bare server W4 and W6 measure kj against (the
// "floor" peer, loadtest/floor.go): the plainest server the standard
// library makes, net/http and encoding/json with no middleware, answering
// /api/user/mine, /api/user/amount and /api/activation/betRequest with
// kj's JSON shapes from memory. Its users (token, id, account, balance)
// come from a JSON file the harness writes; a bet takes the store's one
// mutex, checks and decrements the balance, and is kept by its betId so a
// repeated betId answers the first bet, as kj's does. It keeps no rounds
// and settles nothing: any issue is open.
//
//	floor -addr 127.0.0.1:8080 -users users.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"
)

// User is one user as the harness writes them.
type User struct {
	ID      int64  `json:"userId,string"`
	Account string `json:"account"`
	Token   string `json:"token"`
	Balance int64  `json:"balance"`
}

// kj's envelope codes the floor answers with (internal/apierr; a test
// checks they agree).
const (
	codeOK                  = 0
	codeTokenExpired        = 401
	codeBadRequest          = 1000
	codeRequired            = 1001
	codeInsufficientBalance = 1200
	codeBetContentInvalid   = 1404
	codeBetBelowMin         = 1406
	codeBetAboveMax         = 1407
	codeBetIDTaken          = 1410
)

type envelope struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data"`
}

// userInfo is kj's /user/mine answer (httpapi.UserInfo).
type userInfo struct {
	UserID          string `json:"userId"`
	Username        string `json:"username"`
	NickName        string `json:"nickName"`
	Avatar          string `json:"avatar"`
	Phone           string `json:"phone"`
	Notice          int64  `json:"notice"`
	IsActivation    int    `json:"isActivation"`
	CustomerID      string `json:"customerId"`
	IsRecharge      bool   `json:"isRecharge"`
	InviteCode      string `json:"inviteCode"`
	HasFundPassword bool   `json:"hasFundPassword"`
	IsOperator      int    `json:"isOperator"`
}

// amountReply is kj's /user/amount answer.
type amountReply struct {
	UserID          string `json:"userId"`
	Amount          int64  `json:"amount"`
	FrozenAmount    int64  `json:"frozenAmount"`
	HasFundPassword bool   `json:"hasFundPassword"`
	BankCardCount   int    `json:"bankCardCount"`
	IsRecharge      bool   `json:"isRecharge"`
	ExchangeMin     int64  `json:"exchangeMin"`
	ExchangeMax     int64  `json:"exchangeMax"`
}

type betRequest struct {
	WindowID int64  `json:"windowId"`
	Issue    string `json:"issue"`
	Content  string `json:"content"`
	Amount   int64  `json:"amount"`
	BetID    string `json:"betId"`
}

// betView is kj's /activation/betRequest answer (window.BetView).
type betView struct {
	BetID     string `json:"betId"`
	NoteNo    string `json:"noteNo"`
	WindowID  int64  `json:"windowId"`
	Issue     string `json:"issue"`
	Content   string `json:"content"`
	Amount    int64  `json:"amount"`
	Matched   bool   `json:"matched"`
	Result    string `json:"result"`
	Payout    int64  `json:"payout"`
	PlacedAt  int64  `json:"placedAt"`
	SettledAt int64  `json:"settledAt"`
}

type placed struct {
	userID int64
	view   betView
}

// Store is the floor's state: users by token, bets by betId.
type Store struct {
	MinBet, MaxBet int64

	mu     sync.Mutex
	users  map[string]*User
	bets   map[string]placed
	noteNo int64
}

// NewStore holds users.
func NewStore(users []User, minBet, maxBet int64) *Store {
	s := &Store{MinBet: minBet, MaxBet: maxBet, users: make(map[string]*User, len(users)), bets: map[string]placed{}}
	for i := range users {
		s.users[users[i].Token] = &users[i]
	}
	return s
}

// user is the token's user as it is now (a copy), false when unknown.
func (s *Store) user(r *http.Request) (User, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[r.Header.Get("token")]
	if !ok {
		return User{}, false
	}
	return *u, true
}

// Handler answers the floor's routes.
func (s *Store) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("POST /api/user/mine", s.mine)
	mux.HandleFunc("POST /api/user/amount", s.amount)
	mux.HandleFunc("POST /api/activation/betRequest", s.bet)
	return mux
}

func (s *Store) mine(w http.ResponseWriter, r *http.Request) {
	u, ok := s.user(r)
	if !ok {
		write(w, envelope{Code: codeTokenExpired, Message: "Login expired, please log in again"})
		return
	}
	id := strconv.FormatInt(u.ID, 10)
	write(w, envelope{Message: "success", Data: userInfo{UserID: id, Username: u.Account, NickName: u.Account,
		InviteCode: "pro_" + u.Account, IsRecharge: true}})
}

func (s *Store) amount(w http.ResponseWriter, r *http.Request) {
	u, ok := s.user(r)
	if !ok {
		write(w, envelope{Code: codeTokenExpired, Message: "Login expired, please log in again"})
		return
	}
	write(w, envelope{Message: "success", Data: amountReply{UserID: strconv.FormatInt(u.ID, 10), Amount: u.Balance,
		IsRecharge: true, ExchangeMin: 1000, ExchangeMax: 10000000}})
}

func (s *Store) bet(w http.ResponseWriter, r *http.Request) {
	var req betRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		write(w, envelope{Code: codeBadRequest, Message: "Bad request"})
		return
	}
	switch {
	case req.WindowID == 0 || req.Issue == "" || req.Content == "" || req.Amount == 0 || req.BetID == "":
		write(w, envelope{Code: codeRequired, Message: "A required field is missing"})
		return
	case req.Content != "BIG" && req.Content != "SMALL" && req.Content != "SINGLE" && req.Content != "DOUBLE":
		write(w, envelope{Code: codeBetContentInvalid, Message: "Bet content must be BIG, SMALL, SINGLE or DOUBLE"})
		return
	case req.Amount < s.MinBet:
		write(w, envelope{Code: codeBetBelowMin, Message: "The minimum bet is " + strconv.FormatInt(s.MinBet/100, 10)})
		return
	case req.Amount > s.MaxBet:
		write(w, envelope{Code: codeBetAboveMax, Message: "The maximum bet is " + strconv.FormatInt(s.MaxBet/100, 10)})
		return
	}
	code, msg, view := s.place(r.Header.Get("token"), req)
	write(w, envelope{Code: code, Message: msg, Data: view})
}

// place takes the bet under the store's mutex: the balance checked and
// decremented, the bet kept by its id.
func (s *Store) place(token string, req betRequest) (int, string, any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[token]
	if !ok {
		return codeTokenExpired, "Login expired, please log in again", nil
	}
	if p, ok := s.bets[req.BetID]; ok {
		if p.userID != u.ID {
			return codeBetIDTaken, "This bet id is already used by another player", nil
		}
		return codeOK, "success", p.view
	}
	if u.Balance < req.Amount {
		return codeInsufficientBalance, "Insufficient balance", nil
	}
	u.Balance -= req.Amount
	s.noteNo++
	v := betView{BetID: req.BetID, NoteNo: strconv.FormatInt(s.noteNo, 10), WindowID: req.WindowID, Issue: req.Issue,
		Content: req.Content, Amount: req.Amount, PlacedAt: time.Now().UnixMilli()}
	s.bets[req.BetID] = placed{userID: u.ID, view: v}
	return codeOK, "success", v
}

func write(w http.ResponseWriter, env envelope) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(env)
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	usersPath := flag.String("users", "", "JSON file of the users: [{userId, account, token, balance}]")
	minBet := flag.Int64("min-bet", 100, "smallest bet, in cents")
	maxBet := flag.Int64("max-bet", 1000000, "largest bet, in cents")
	flag.Parse()
	b, err := os.ReadFile(*usersPath)
	if err != nil {
		log.Fatal(err)
	}
	var users []User
	if err := json.Unmarshal(b, &users); err != nil {
		log.Fatalf("%s: %v", *usersPath, err)
	}
	s := NewStore(users, *minBet, *maxBet)
	log.Printf("floor: %d users, listening on %s", len(users), *addr)
	log.Fatal(http.ListenAndServe(*addr, s.Handler()))
}

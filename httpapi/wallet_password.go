package httpapi

// The fund password's routes. Its rules (6 digits, hashed, the lockout
// after wrong tries) are kj/wallet's.

func init() {
	registerArea(func(s *Server) {
		s.Post("/user/setWalletPwd", User, s.setFundPassword)
		s.Post("/user/changeWalletPwd", User, s.changeFundPassword)
	})
}

func (s *Server) setFundPassword(c *Call) (any, error) {
	var req struct {
		Password string `json:"password"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if err := s.Wallet.SetFundPassword(c.Ctx, c.User, req.Password); err != nil {
		return nil, err
	}
	return map[string]any{"hasFundPassword": true}, nil
}

func (s *Server) changeFundPassword(c *Call) (any, error) {
	var req struct {
		OldPassword string `json:"oldPassword"`
		Password    string `json:"password"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if err := s.Wallet.ChangeFundPassword(c.Ctx, c.User, req.OldPassword, req.Password); err != nil {
		return nil, err
	}
	return map[string]any{"hasFundPassword": true}, nil
}

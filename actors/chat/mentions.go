package chat

import (
	"strings"

	"kj/storage"
)

// mentionType is how an @message names userID (the SDK's groupAtType:
// AtMe, AtAll or AtAllAtMe; 0 for none).
func mentionType(m *Message, userID int64) int {
	if m.AtTextElem != nil {
		return storage.ChatMentionType(m.AtTextElem.AtUserList, userID)
	}
	return storage.ChatContentMentionType(m.Content, userID)
}

// searchTextTypes are the messages a search across conversations reads:
// the ones whose words a person typed.
var searchTextTypes = []int{TypeText, TypeAtText, TypeQuote}

// searchScanLimit bounds the candidate messages one search page reads from
// the store, so a keyword that matches the JSON of many messages but the
// text of few (a field name) cannot make a page read a user's whole history.
const searchScanLimit = 2000

// searchAllConversations is SearchLocalMessages without a conversationID:
// the text messages of every conversation of the caller (never another
// user's) holding the keywords, newest first, pageIndex (from 1) of count
// matches, grouped by conversation in the order of their newest match.
// totalCount is the number of matches up to the end of this page, plus one
// when more follow, so a client knows whether to ask for the next page.
func searchAllConversations(c *call, kws []string, matchAll bool, senders map[string]bool, pageIndex, count int) (any, error) {
	e := c.s.e
	skip := (pageIndex - 1) * count
	type hit struct {
		conv string
		m    *Message
	}
	var found []hit
	more := false
	seen := 0
	const chunk = 200
	for offset := 0; offset < searchScanLimit && !more; offset += chunk {
		cands, err := storage.SearchUserChatMessages(c.ctx(), e.db, storage.ChatSearch{UserID: c.me(), Keyword: kws[0],
			ContentTypes: searchTextTypes, Offset: offset, Limit: chunk})
		if err != nil {
			return nil, err
		}
		for _, r := range cands {
			m := fromStored(r)
			if !textMatches(m, kws, matchAll) || (len(senders) > 0 && !senders[m.SendID]) {
				continue
			}
			seen++
			if seen <= skip {
				continue
			}
			if len(found) == count {
				more = true
				break
			}
			found = append(found, hit{r.ConversationID, m})
		}
		if len(cands) < chunk {
			break
		}
	}
	res := SearchResult{TotalCount: skip + len(found), SearchResultItems: []*SearchResultItem{}}
	if more {
		res.TotalCount++
	}
	if len(found) == 0 {
		return res, nil
	}
	// Group by conversation, in the order each first appears.
	var order []string
	byConv := map[string][]*Message{}
	for _, h := range found {
		if _, ok := byConv[h.conv]; !ok {
			order = append(order, h.conv)
		}
		byConv[h.conv] = append(byConv[h.conv], h.m)
	}
	for _, id := range order {
		ref, ok := parseConversationID(id)
		if !ok {
			continue
		}
		row, err := c.myRow(ref)
		if err != nil {
			return nil, err
		}
		item, err := c.resultItem(row, byConv[id])
		if err != nil {
			return nil, err
		}
		res.SearchResultItems = append(res.SearchResultItems, item)
	}
	return res, nil
}

// textMatches says whether the decoded text of m holds any keyword, or
// every one when matchAll (keywords are lower case).
func textMatches(m *Message, kws []string, matchAll bool) bool {
	text := strings.ToLower(messageText(m))
	hits := 0
	for _, k := range kws {
		if strings.Contains(text, k) {
			hits++
		}
	}
	return hits > 0 && (!matchAll || hits == len(kws))
}

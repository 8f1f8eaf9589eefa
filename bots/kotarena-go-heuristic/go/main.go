// Command go-heuristic is a King of Tokyo bot for kotarena, written in Go: it speaks
// kotarena's JSON-lines protocol (docs/protocol.md) on standard input and output and
// plays by the same rules of thumb as the Python heuristic bot (bots/kotarena-heuristic).
//
// Each message is one JSON object on one line. The bot keeps the last view and merges
// each message's "view" into it (hello carries the whole view, later messages only the
// fields that changed), then answers.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// protocol is the version of kotarena's protocol this bot speaks.
const protocol = 1

// maxLine is the longest line the referee sends (the protocol's MAX_LINE).
const maxLine = 1 << 20

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64*1024), maxLine+1)
	out := bufio.NewWriter(os.Stdout)
	say := func(message map[string]any) {
		line, _ := json.Marshal(message)
		out.Write(line)
		out.WriteByte('\n')
		out.Flush()
	}
	say(map[string]any{"type": "bot", "protocol": protocol})
	var view View // the last view: each message's "view" is merged into it
	var bot *heuristic
	for in.Scan() {
		var message struct {
			Type string          `json:"type"`
			View json.RawMessage `json:"view"`
		}
		err := json.Unmarshal(in.Bytes(), &message)
		if err == nil && message.View != nil {
			// Decoding into the last view sets the fields present and leaves the others.
			err = json.Unmarshal(message.View, &view)
		}
		if err != nil {
			say(map[string]any{"type": "error", "message": fmt.Sprintf("cannot read the referee's line: %v", err)})
			return
		}
		switch message.Type {
		case "hello":
			bot = &heuristic{sweptTurn: -1}
			say(map[string]any{"type": "ready"})
		case "decide":
			say(map[string]any{"type": "action", "action": bot.choose(&view)})
		case "finish":
			say(map[string]any{"type": "bye"})
			return
		}
	}
}

// View is what the bot reads of kotarena's view of a seat (kotarena.View documents
// every field; the bot ignores those it does not use).
type View struct {
	Player    int       `json:"player"`
	Deck      *string   `json:"deck"`
	Health    []int     `json:"health"`
	MaxHealth []int     `json:"max_health"`
	Stars     []int     `json:"stars"`
	Energy    []int     `json:"energy"`
	Alive     []bool    `json:"alive"`
	City      int       `json:"city"`
	Bay       int       `json:"bay"`
	Active    int       `json:"active"`
	Turn      int       `json:"turn"`
	Dice      []int     `json:"dice"`
	RollsLeft int       `json:"rolls_left"`
	Market    []*string `json:"market"`
	Kind      string    `json:"kind"`
	Legal     []string  `json:"legal"`
}

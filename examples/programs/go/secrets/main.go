// A program holding credentials as real ones do: a database password in a struct, an
// API key in a map, a GitHub token in a slice. It prints the token in two writes, so
// that it reaches the debugger split across two output events, then panics with it in
// the message. dapvisor hides all of them from an agent by default
// (tests/mcp_redaction_adapters.rs). The values are made up, in each service's format.
package main

import (
	"fmt"
	"os"
)

type dbConfig struct {
	Host     string
	User     string
	Password string
	Port     int
}

func connect(db dbConfig, keys map[string]string, tokens []string) int {
	half := len(tokens[0]) / 2
	fmt.Fprint(os.Stdout, tokens[0][:half])
	os.Stdout.Sync()
	fmt.Fprintln(os.Stdout, tokens[0][half:])
	checked := len(db.Password) + len(keys["api_key"])
	return checked // stop here
}

func login(tokens []string) {
	panic("login refused for " + tokens[0])
}

// The values stand apart from the stop, so that the source lines a stop shows hold
// none of them.

func main() {
	db := dbConfig{"db.internal", "app", "s3cr3t-Db-passw0rd", 5432}
	keys := map[string]string{"api_key": "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "region": "eu-west-1"}
	tokens := []string{"ghp_R2d2C3poX9wingY7falconZ4ewok01BB8kQQ", "public-id-42"}
	fmt.Println("checked", connect(db, keys, tokens))
	login(tokens)
}

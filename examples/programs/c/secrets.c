/* A program holding credentials as real ones do: a database password in a struct, a
 * GitHub token in an array, an API key under a secret name. It prints the token in
 * two writes, as a buffered logger may, so that it reaches the debugger split across
 * two output events. dapvisor hides all of them from an agent by default
 * (tests/mcp_redaction_adapters.rs). The values are made up, in each service's format. */
#include <stdio.h>
#include <string.h>

struct db_config {
    const char *host;
    const char *user;
    const char *password;
    int port;
};

static int connect(const struct db_config *db, const char *const *tokens, const char *api_key) {
    size_t half = strlen(tokens[0]) / 2;
    fwrite(tokens[0], 1, half, stdout);
    fflush(stdout);
    fputs(tokens[0] + half, stdout);
    fputs("\n", stdout);
    fflush(stdout);
    int checked = (int)(strlen(db->password) + strlen(api_key));
    return checked; /* stop here */
}

/* The values stand apart from the stop, so that the source lines a stop shows hold
 * none of them. */

int main(void) {
    struct db_config db = {"db.internal", "app", "s3cr3t-Db-passw0rd", 5432};
    const char *tokens[2] = {"ghp_R2d2C3poX9wingY7falconZ4ewok01BB8kQQ", "public-id-42"};
    const char *api_key = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
    int checked = connect(&db, tokens, api_key);
    printf("checked %d\n", checked);
    return 0;
}

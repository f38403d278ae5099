"""A program holding credentials, as real ones do: an AWS key pair, a database
password inside a config dict and a GitHub token. It prints the key pair, as a
careless log line would. dapvisor hides all four from an agent by default
(tests/mcp_redaction.rs). The values are made up, in each service's format."""

AWS_ACCESS_KEY_ID = "AKIAIOSFODNN7EXAMPLE"
AWS_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"


def connect(db, github_token, aws_access_key_id, aws_secret_access_key):
    password = db["password"]
    expected = "not-the-password"
    print(f"using AWS key {aws_access_key_id} {aws_secret_access_key}", flush=True)
    return password == expected  # stop here


def main():
    db = {"host": "db.internal", "user": "app", "password": "s3cr3t-Db-passw0rd"}
    github_token = "ghp_R2d2C3poX9wingY7falconZ4ewok01BB8kQQ"
    matched = connect(db, github_token, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)
    print(f"matched: {matched}")


if __name__ == "__main__":
    main()

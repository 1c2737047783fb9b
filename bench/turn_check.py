"""Does a TURN server take the credentials the game server hands out (voice at the
table, 開黑)? Chromium asks it for a relay with a credential made the way the
workers make them (``social.voice.turn_credential``: TURN REST, a shared secret),
and again with a wrong one; a working server relays the first and refuses the second.

    .venv/bin/python bench/turn_check.py turn:mj.example.org:3478 "$TWMJ_TURN_SECRET"

Prints the relay candidates of each and exits 0 when the right credential got one
and the wrong one none. Needs Chromium (TWMJ_CHROMIUM, default /usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import os
import sys

from playwright.sync_api import sync_playwright

from twmahjong.server.social.voice import turn_credential

GATHER = """async ([url, username, credential]) => {
  const pc = new RTCPeerConnection({iceServers: [{urls: url, username, credential}],
                                    iceTransportPolicy: "relay"});
  pc.addTransceiver("audio");
  const found = [];
  pc.onicecandidate = (e) => e.candidate && found.push(e.candidate.candidate);
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((done) => {
    pc.onicegatheringstatechange = () => pc.iceGatheringState === "complete" && done();
    setTimeout(done, 10000);
  });
  pc.close();
  return found.filter((c) => c.includes(" typ relay"));
}"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("url", help="the TURN URL, e.g. turn:mj.example.org:3478?transport=udp")
    ap.add_argument("secret", help="the secret coturn and the workers share")
    ap.add_argument("--account", type=int, default=1, help="the account id in the username")
    args = ap.parse_args()
    username, credential = turn_credential(args.secret, args.account, ttl=600)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=os.environ.get(
            "TWMJ_CHROMIUM", "/usr/bin/chromium"), args=["--headless", "--no-sandbox"])
        page = browser.new_page()
        # a secure origin of its own (RTCPeerConnection wants one), served from here
        page.route("http://localhost/**", lambda r: r.fulfill(body="<html></html>",
                                                               content_type="text/html"))
        page.goto("http://localhost/")
        right = page.evaluate(GATHER, [args.url, username, credential])
        wrong = page.evaluate(GATHER, [args.url, username, "bm90IHRoZSBzZWNyZXQ="])
        browser.close()
    print(f"with {username}: {right or 'no relay'}")
    print(f"with a wrong credential: {wrong or 'no relay'}")
    return 0 if right and not wrong else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""A stand-in for the parts of GitHub the action talks to, on 127.0.0.1: the release downloads
and the REST API of an issue's comments. It keeps its state in FOLDER, so a test reads what the
action did there and changes what GitHub answers:

  FOLDER/releases/...   served under /releases/download/... (the download-url is BASE/releases/download)
  FOLDER/comments.json  the pull request's comments, [{"id": N, "body": "..."}], read and written
                        on every API call
  FOLDER/answer         when present, a status code every API call answers instead, with a
                        GitHub-like {"message": ...}
  FOLDER/requests.log   one "METHOD path" line per request
  FOLDER/port           written once it listens

API: GET /repos/OWNER/REPO/issues/N/comments (per_page, page, and a Link header with rel="next"
as GitHub gives it), POST to the same path, PATCH /repos/OWNER/REPO/issues/comments/ID. Every
API call needs "Authorization: Bearer TOKEN", the token in FOLDER/token.

Usage: fake-github.py FOLDER
"""
import http.server
import json
import os
import re
import sys
import urllib.parse

folder = sys.argv[1]


def path_of(name):
    return os.path.join(folder, name)


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *arguments):
        pass

    def answer(self, status, document=None, body=None, headers=()):
        if document is not None:
            body = json.dumps(document).encode()
        body = body or b""
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Type", "application/json" if document is not None else "application/octet-stream")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self, method):
        with open(path_of("requests.log"), "a", encoding="utf-8") as log:
            log.write(f"{method} {self.path}\n")
        url = urllib.parse.urlsplit(self.path)
        if url.path.startswith("/releases/download/") and method == "GET":
            relative = url.path[len("/releases/download/"):]
            file = os.path.join(folder, "releases", relative)
            if ".." in relative.split("/") or not os.path.isfile(file):
                return self.answer(404, body=b"Not Found")
            return self.answer(200, body=open(file, "rb").read())
        token = open(path_of("token"), encoding="utf-8").read().strip()
        if self.headers.get("Authorization") != f"Bearer {token}":
            return self.answer(401, {"message": "Bad credentials"})
        if os.path.exists(path_of("answer")):
            status = int(open(path_of("answer"), encoding="utf-8").read())
            return self.answer(status, {"message": "Resource not accessible by integration"})
        comments = json.load(open(path_of("comments.json"), encoding="utf-8"))
        listing = re.fullmatch(r"/repos/[^/]+/[^/]+/issues/(\d+)/comments", url.path)
        single = re.fullmatch(r"/repos/[^/]+/[^/]+/issues/comments/(\d+)", url.path)
        if listing and method == "GET":
            query = urllib.parse.parse_qs(url.query)
            per_page = min(int(query.get("per_page", ["30"])[0]), 100)
            page = int(query.get("page", ["1"])[0])
            shown = comments[(page - 1) * per_page:page * per_page]
            headers = []
            if page * per_page < len(comments):
                base = f"http://{self.headers['Host']}{url.path}"
                headers.append(("Link", f'<{base}?per_page={per_page}&page={page + 1}>; rel="next", '
                                        f'<{base}?per_page={per_page}&page={-(-len(comments) // per_page)}>; rel="last"'))
            return self.answer(200, shown, headers=headers)
        length = int(self.headers.get("Content-Length", "0"))
        sent = json.loads(self.rfile.read(length) or b"{}")
        if listing and method == "POST":
            comment = {"id": max([c["id"] for c in comments] + [1000]) + 1, "body": sent["body"]}
            comments.append(comment)
            status = 201
        elif single and method == "PATCH":
            matching = [c for c in comments if c["id"] == int(single.group(1))]
            if not matching:
                return self.answer(404, {"message": "Not Found"})
            comment = matching[0]
            comment["body"] = sent["body"]
            status = 200
        else:
            return self.answer(404, {"message": "Not Found"})
        with open(path_of("comments.tmp"), "w", encoding="utf-8") as file:
            json.dump(comments, file)
        os.replace(path_of("comments.tmp"), path_of("comments.json"))
        comment = dict(comment, html_url=f"http://{self.headers['Host']}/comment/{comment['id']}")
        return self.answer(status, comment)

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_PATCH(self):
        self.handle_any("PATCH")


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(path_of("port.tmp"), "w", encoding="utf-8") as port:
    port.write(str(server.server_address[1]))
os.replace(path_of("port.tmp"), path_of("port"))
server.serve_forever()

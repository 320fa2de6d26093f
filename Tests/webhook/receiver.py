#!/usr/bin/env python3
"""A webhook receiver that misbehaves on purpose, for the tests of `recommend --notify-url`.

    receiver.py MODE LOG

Listens on 127.0.0.1 on a free port and prints `listening port=N` on stderr. For every connection it reads
one HTTP request (head and Content-Length body), appends it to LOG as one JSON line
(`{"path", "headers", "body", "time"}`, body as text), and then, by MODE:
  silent    never answers (keeps the connection open)
  trickle   sends a valid answer one byte every 0.3 s (a status line, a long body)
  redirect  answers 307 with `Location: /elsewhere` (a POST to it would be logged too)
  ok        answers 204
Runs until killed.
"""
import json, socket, sys, threading, time

MODE, LOG = sys.argv[1], sys.argv[2]
lock = threading.Lock()


def read_request(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return {"path": lines[0].split(" ")[1], "headers": headers, "body": body.decode("utf-8"), "time": time.time()}


def serve(conn):
    try:
        request = read_request(conn)
        if request is None:
            return
        with lock, open(LOG, "a") as log:
            log.write(json.dumps(request) + "\n")
        if MODE == "silent":
            time.sleep(3600)
        elif MODE == "trickle":
            answer = b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + b"x" * 100000
            for byte in answer:
                conn.sendall(bytes([byte]))
                time.sleep(0.3)
        elif MODE == "redirect":
            conn.sendall(b"HTTP/1.1 307 Temporary Redirect\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n")
        else:
            conn.sendall(b"HTTP/1.1 204 No Content\r\n\r\n")
    except OSError:
        pass
    finally:
        if MODE != "silent":
            conn.close()


listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(64)
print(f"listening port={listener.getsockname()[1]}", file=sys.stderr, flush=True)
while True:
    connection, _ = listener.accept()
    threading.Thread(target=serve, args=(connection,), daemon=True).start()

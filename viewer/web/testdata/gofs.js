// gofs.js: a read-only in-memory file system for Go programs built with
// GOOS=js GOARCH=wasm, so that a Go test binary can read its testdata in a
// browser. wasm_exec.js keeps a globalThis.fs that is already defined, and
// Go's syscall package (syscall/fs_js.go) calls it with Node's callback API:
// open, fstat, read, close, readdir, stat, lstat; stdout and stderr go
// through write. Everything else fails with EROFS or ENOSYS.
//
// installGoFS(files, cwd) installs it: files maps absolute paths to
// Uint8Arrays; cwd is the working directory relative paths resolve in. It
// returns a function giving everything written to stdout and stderr so far.
"use strict";

function installGoFS(files, cwd) {
	const fail = (code) => { const e = new Error(code); e.code = code; return e; };
	const norm = (p) => {
		if (!p.startsWith("/")) p = cwd + "/" + p;
		const out = [];
		for (const part of p.split("/")) {
			if (part === "" || part === ".") continue;
			if (part === "..") out.pop(); else out.push(part);
		}
		return "/" + out.join("/");
	};
	const dirs = new Map(); // directory → set of entry names
	const addDir = (d) => { if (!dirs.has(d)) dirs.set(d, new Set()); };
	addDir("/");
	const data = new Map();
	for (const [name, bytes] of Object.entries(files)) {
		const p = norm(name);
		data.set(p, bytes);
		let child = p;
		while (child !== "/") {
			const parent = child.slice(0, child.lastIndexOf("/")) || "/";
			addDir(parent);
			dirs.get(parent).add(child.slice(child.lastIndexOf("/") + 1));
			child = parent;
		}
	}
	const statOf = (p) => {
		const isDir = dirs.has(p);
		if (!isDir && !data.has(p)) return null;
		const size = isDir ? 0 : data.get(p).length;
		return {
			dev: 0, ino: 0, nlink: 1, uid: 0, gid: 0, rdev: 0, blksize: 4096,
			mode: isDir ? 0o40555 : 0o100444, size, blocks: Math.ceil(size / 512),
			atimeMs: 0, mtimeMs: 0, ctimeMs: 0,
			isDirectory: () => isDir,
		};
	};
	const open = new Map(); // fd → {path, pos}
	let nextFD = 10;
	let output = "", line = "";
	const decoder = new TextDecoder("utf-8");
	const writeOut = (buf) => {
		const s = decoder.decode(buf);
		output += s;
		line += s;
		const nl = line.lastIndexOf("\n");
		if (nl >= 0) {
			console.log(line.slice(0, nl));
			line = line.slice(nl + 1);
		}
		return buf.length;
	};
	const ro = (...args) => args[args.length - 1](fail("EROFS"));
	globalThis.fs = {
		constants: { O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_TRUNC: 512, O_APPEND: 1024, O_EXCL: 128, O_DIRECTORY: 65536 },
		writeSync(fd, buf) {
			if (fd !== 1 && fd !== 2) throw fail("EBADF");
			return writeOut(buf);
		},
		write(fd, buf, offset, length, position, cb) {
			if (fd !== 1 && fd !== 2) return cb(fail("EBADF"));
			cb(null, writeOut(buf.subarray(offset, offset + length)));
		},
		open(path, flags, mode, cb) {
			if (flags & (1 | 2 | 64 | 512 | 1024)) return cb(fail("EROFS"));
			const p = norm(path);
			if (!statOf(p)) return cb(fail("ENOENT"));
			const fd = nextFD++;
			open.set(fd, { path: p, pos: 0 });
			cb(null, fd);
		},
		close(fd, cb) { open.delete(fd) ? cb(null) : cb(fail("EBADF")); },
		fstat(fd, cb) { const f = open.get(fd); f ? cb(null, statOf(f.path)) : cb(fail("EBADF")); },
		stat(path, cb) { const s = statOf(norm(path)); s ? cb(null, s) : cb(fail("ENOENT")); },
		lstat(path, cb) { this.stat(path, cb); },
		readdir(path, cb) {
			const d = dirs.get(norm(path));
			d ? cb(null, [...d].sort()) : cb(fail("ENOTDIR"));
		},
		read(fd, buffer, offset, length, position, cb) {
			const f = open.get(fd);
			if (!f) return cb(fail("EBADF"));
			const src = data.get(f.path);
			if (!src) return cb(fail("EISDIR"));
			const at = position === null ? f.pos : position;
			const n = Math.max(0, Math.min(length, src.length - at));
			buffer.set(src.subarray(at, at + n), offset);
			if (position === null) f.pos += n;
			cb(null, n);
		},
		fsync(fd, cb) { cb(null); },
		chmod: ro, chown: ro, fchmod: ro, fchown: ro, ftruncate: ro, lchown: ro, link: ro, mkdir: ro,
		rename: ro, rmdir: ro, symlink: ro, truncate: ro, unlink: ro, utimes: ro,
		readlink(path, cb) { cb(fail("EINVAL")); },
	};
	const enosys = () => { throw fail("ENOSYS"); };
	globalThis.process = {
		getuid: () => -1, getgid: () => -1, geteuid: () => -1, getegid: () => -1, getgroups: enosys,
		pid: -1, ppid: -1, umask: enosys, chdir: enosys,
		cwd: () => cwd,
	};
	globalThis.path = { resolve: (...parts) => norm(parts.reduce((p, q) => q.startsWith("/") ? q : p + "/" + q, cwd)) };
	return () => output;
}

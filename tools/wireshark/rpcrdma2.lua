-- SPDX-License-Identifier: GPL-2.0
--
-- rpcrdma2.lua: a Wireshark dissector of RPC-over-RDMA transport headers,
-- Version 1 (RFC 8166) and Version 2 (draft-cel-nfsv4-rpcrdma-version-two-09),
-- carried in RoCEv2 (UDP 4791) or any other InfiniBand transport that
-- Wireshark's infiniband dissector reaches. The RPC message that follows
-- an RDMA_MSG / RDMA2_MSG header goes to Wireshark's RPC dissector, and
-- NFS above it is decoded.
--
--   tshark -X lua_script:tools/wireshark/rpcrdma2.lua \
--          --disable-heuristic rpcrdma_infiniband -r capture.pcap
--
-- (Wireshark's own RPC-over-RDMA dissector knows Version 1 only, and once
-- it has taken a packet of a connection, the connection's later packets go
-- to it without this one being asked.) See Documentation/wireshark.rst.
--
-- The dissector trusts nothing it reads: every item is checked against
-- the bytes captured before it is shown, and a header that ends early, an
-- optional-data discriminator other than 0 or 1, or a rule of the specs
-- broken is shown as expert information (Analyze > Expert Information,
-- or the rpcrdma2.ei.* fields), never as a Lua error.

local rpcrdma2 = Proto.new("rpcrdma2", "RPC-over-RDMA")

-- On-the-wire values (RFC 8166 §4.1.2; draft v2 §3, §4.2, §5.3.3, §6)
local VERS_1, VERS_2 = 1, 2
local MSG, NOMSG, MSGP, DONE, ERROR, CONNPROP = 0, 1, 2, 3, 4, 5
local F_RESPONSE = 0x00000001
local ERR_VERS, ERR_BAD_XDR = 1, 2
local ERR_READ_CHUNKS, ERR_WRITE_CHUNKS, ERR_SEGMENTS = 4, 5, 6
local ERR_WRITE_RESOURCE, ERR_REPLY_RESOURCE = 7, 8
local PROPID_RBSIZ, PROPID_BRS = 1, 2
local RVREQSUP_GENL = 2
local V1_MIN_HDR = 28		-- RFC 8166 §4.5

local vers_names = { [1] = "Version 1", [2] = "Version 2" }
local v1_procs = {
	[0] = "RDMA_MSG", [1] = "RDMA_NOMSG", [2] = "RDMA_MSGP",
	[3] = "RDMA_DONE", [4] = "RDMA_ERROR",
}
local v2_htypes = {
	[0] = "RDMA2_MSG", [1] = "RDMA2_NOMSG", [4] = "RDMA2_ERROR",
	[5] = "RDMA2_CONNPROP",
}
local v1_errs = { [1] = "ERR_VERS", [2] = "ERR_CHUNK" }
local v2_errs = {
	[1] = "RDMA2_ERR_VERS", [2] = "RDMA2_ERR_BAD_XDR",
	[3] = "RDMA2_ERR_INVAL_HTYPE", [4] = "RDMA2_ERR_READ_CHUNKS",
	[5] = "RDMA2_ERR_WRITE_CHUNKS", [6] = "RDMA2_ERR_SEGMENTS",
	[7] = "RDMA2_ERR_WRITE_RESOURCE", [8] = "RDMA2_ERR_REPLY_RESOURCE",
	[9] = "RDMA2_ERR_SYSTEM",
}
local propids = { [1] = "RDMA2_PROPID_RBSIZ", [2] = "RDMA2_PROPID_BRS" }
local rvreqsup = {
	[0] = "RDMA2_RVREQSUP_NONE", [1] = "RDMA2_RVREQSUP_INLINE",
	[2] = "RDMA2_RVREQSUP_GENL",
}
local follows = { [0] = "no", [1] = "yes" }

local function named(names, v, unknown)
	return names[v] or string.format("%s %u", unknown or "unknown", v)
end

-- Fields: one filterable name per wire item, plus a few generated counts
local hf = {
	xid = ProtoField.uint32("rpcrdma2.xid", "XID", base.HEX),
	vers = ProtoField.uint32("rpcrdma2.vers", "Version", base.DEC,
		vers_names),
	credits = ProtoField.uint32("rpcrdma2.credits", "Credits", base.DEC),
	htype = ProtoField.uint32("rpcrdma2.htype", "Header type", base.DEC),
	flags = ProtoField.uint32("rpcrdma2.flags", "Flags", base.HEX),
	response = ProtoField.bool("rpcrdma2.flags.response", "RESPONSE", 32,
		{ "reply (the receiver's XID)", "call" }, F_RESPONSE),
	reserved = ProtoField.uint32("rpcrdma2.flags.reserved",
		"Reserved", base.HEX, nil, 0xfffffffe),
	inv_handle = ProtoField.uint32("rpcrdma2.inv_handle",
		"Invalidate handle", base.HEX),
	present = ProtoField.uint32("rpcrdma2.present", "Item follows",
		base.DEC, follows),

	reads = ProtoField.none("rpcrdma2.reads", "Read list"),
	reads_count = ProtoField.uint32("rpcrdma2.reads.count",
		"Read segments", base.DEC),
	reads_chunks = ProtoField.uint32("rpcrdma2.reads.chunks",
		"Read chunks (distinct positions)", base.DEC),
	read = ProtoField.none("rpcrdma2.read", "Read segment"),
	position = ProtoField.uint32("rpcrdma2.read.position", "Position",
		base.DEC),

	writes = ProtoField.none("rpcrdma2.writes", "Write list"),
	writes_count = ProtoField.uint32("rpcrdma2.writes.count",
		"Write chunks", base.DEC),
	write = ProtoField.none("rpcrdma2.write", "Write chunk"),
	write_segcount = ProtoField.uint32("rpcrdma2.write.segcount",
		"Segments", base.DEC),

	reply = ProtoField.none("rpcrdma2.reply", "Reply chunk"),
	reply_segcount = ProtoField.uint32("rpcrdma2.reply.segcount",
		"Segments", base.DEC),

	segment = ProtoField.none("rpcrdma2.segment", "Segment"),
	handle = ProtoField.uint32("rpcrdma2.segment.handle", "Handle",
		base.HEX),
	length = ProtoField.uint32("rpcrdma2.segment.length", "Length",
		base.DEC),
	offset = ProtoField.uint64("rpcrdma2.segment.offset", "Offset",
		base.HEX),

	align = ProtoField.uint32("rpcrdma2.msgp.align", "Alignment",
		base.DEC),
	thresh = ProtoField.uint32("rpcrdma2.msgp.thresh", "Threshold",
		base.DEC),

	err = ProtoField.uint32("rpcrdma2.err", "Error", base.DEC),
	vers_low = ProtoField.uint32("rpcrdma2.err.vers_low",
		"Lowest version", base.DEC),
	vers_high = ProtoField.uint32("rpcrdma2.err.vers_high",
		"Highest version", base.DEC),
	max_chunks = ProtoField.uint32("rpcrdma2.err.max_chunks",
		"Maximum chunks", base.DEC),
	max_segments = ProtoField.uint32("rpcrdma2.err.max_segments",
		"Maximum segments", base.DEC),
	chunk_index = ProtoField.uint32("rpcrdma2.err.chunk_index",
		"Write chunk index", base.DEC),
	length_needed = ProtoField.uint32("rpcrdma2.err.length_needed",
		"Length needed", base.DEC),
	v1_layout = ProtoField.bool("rpcrdma2.err.v1_layout",
		"RFC 8166 layout (no rdma_flags)"),

	props_count = ProtoField.uint32("rpcrdma2.props.count",
		"Properties", base.DEC),
	prop = ProtoField.none("rpcrdma2.prop", "Property"),
	prop_id = ProtoField.uint32("rpcrdma2.prop.id", "Property",
		base.DEC, propids),
	prop_length = ProtoField.uint32("rpcrdma2.prop.length",
		"Data length", base.DEC),
	prop_data = ProtoField.bytes("rpcrdma2.prop.data", "Data"),
	prop_default = ProtoField.bool("rpcrdma2.prop.default",
		"Default value (empty data)"),
	prop_unknown = ProtoField.bool("rpcrdma2.prop.unknown",
		"Unknown property (skipped)"),
	rbsiz = ProtoField.uint32("rpcrdma2.prop.rbsiz",
		"Receive buffer size", base.DEC),
	brs = ProtoField.uint32("rpcrdma2.prop.brs",
		"Reverse request support", base.DEC, rvreqsup),

	fragment = ProtoField.framenum("rpcrdma2.fragment",
		"Send packet of this message"),
	fragment_count = ProtoField.uint32("rpcrdma2.fragment.count",
		"Send packets", base.DEC),
	reassembled_in = ProtoField.framenum("rpcrdma2.reassembled_in",
		"Message reassembled in"),
	reassembled_length = ProtoField.uint32("rpcrdma2.reassembled.length",
		"Reassembled message length", base.DEC),

	hdr_len = ProtoField.uint32("rpcrdma2.hdr_len",
		"Transport header length", base.DEC),
	rpc_len = ProtoField.uint32("rpcrdma2.rpc_len",
		"RPC message length", base.DEC),
	body = ProtoField.bytes("rpcrdma2.body", "Undecoded body"),
}

-- The values of @t in the order of its keys, so that registration is
-- the same from run to run
local function fields_of(t)
	local keys, list = {}, {}
	for k in pairs(t) do
		keys[#keys + 1] = k
	end
	table.sort(keys)
	for i, k in ipairs(keys) do
		list[i] = t[k]
	end
	return list
end
rpcrdma2.fields = fields_of(hf)

-- Expert information: MALFORMED for what cannot be parsed, PROTOCOL for
-- a rule of RFC 8166 or the draft that a well-formed header breaks.
local M, P, U = expert.group.MALFORMED, expert.group.PROTOCOL,
	expert.group.UNDECODED
local E, W, N = expert.severity.ERROR, expert.severity.WARN,
	expert.severity.NOTE
local function ei(name, text, group, sev)
	return ProtoExpert.new("rpcrdma2.ei." .. name, text, group, sev)
end
local ex = {
	truncated = ei("truncated", "Header truncated", M, E),
	short = ei("short", "Version 1 header shorter than 28 bytes " ..
		"(RFC 8166 §4.5: discarded)", M, E),
	unaligned = ei("unaligned", "Message length not a multiple of 4",
		M, E),
	bad_bool = ei("bad_discriminator",
		"Optional-data discriminator neither 0 nor 1", M, E),
	flags = ei("reserved_flags",
		"Reserved rdma_flags bits set (draft v2 §3.2)", P, W),
	position = ei("bad_position",
		"Read position not a multiple of 4 (RFC 8166 §3.4.5)", P, W),
	inv_handle = ei("inv_handle_unmatched",
		"rdma_inv_handle matches no rdma_handle of the Call " ..
		"(draft v2 §3.3)", P, W),
	nomsg_empty = ei("nomsg_empty",
		"NOMSG without any chunk (RFC 8166 §4.2.4)", P, W),
	nomsg_chunk = ei("nomsg_no_payload_chunk",
		"NOMSG without a chunk that can hold the RPC message " ..
		"(Position-Zero Read chunk or Reply chunk)", P, W),
	reply_reads = ei("reply_reads",
		"Read list in a reply (RFC 8166 §4.3.1)", P, W),
	no_payload = ei("no_payload", "MSG without an RPC message", P, W),
	xid_mismatch = ei("xid_mismatch",
		"rdma_xid differs from the RPC XID (RFC 8166 §4.2.1)", P, W),
	msg_type = ei("msg_type_mismatch",
		"RESPONSE flag differs from the RPC msg_type " ..
		"(draft v2 §3.2)", P, W),
	not_response = ei("error_not_response",
		"RDMA2_ERROR without RESPONSE (draft v2 §3.2)", P, W),
	bad_error = ei("bad_error",
		"Error code Version 1 does not define (RFC 8166 §4.5)", P, W),
	unknown_error = ei("unknown_error",
		"Error code unknown: void arm (draft v2 §5.3.3)", U, N),
	propval = ei("bad_property_value",
		"Property value does not fit its type (draft v2 §4.1)", P, W),
	unknown_prop = ei("unknown_property",
		"Unknown property, skipped (draft v2 §4.1)", U, N),
	unknown_htype = ei("unknown_htype",
		"Header type unknown: body not decoded (RFC 8166 §4.2.4, " ..
		"draft v2 §5.2)", U, W),
	not_used = ei("not_to_be_used",
		"Procedure no longer used (RFC 8166 §4.6)", P, W),
	v1_layout = ei("v1_layout",
		"ERR_VERS in the RFC 8166 layout, as a Version 1 responder " ..
		"answers a Version 2 Call (draft v2 §7.2)", P, N),
	rpc_malformed = ei("rpc_malformed",
		"The RPC dissector could not decode the message", M, W),
	rpc_external = ei("rpc_external",
		"RPC message not in this packet: it is moved by RDMA Read " ..
		"or Write (not reassembled)", U, N),
	internal = ei("internal", "rpcrdma2.lua internal error", M, E),
}
rpcrdma2.experts = fields_of(ex)

local rpc_dissector = Dissector.get("rpc")
local f_bth_opcode = Field.new("infiniband.bth.opcode")
local f_bth_padcnt = Field.new("infiniband.bth.padcnt")
local f_bth_destqp = Field.new("infiniband.bth.destqp")
local f_bth_psn = Field.new("infiniband.bth.psn")

-- RC Send opcodes (IBTA Vol. 1 §9.2): the only packets that carry
-- transport headers and RPC messages. RDMA Write and Read Response
-- payloads are data items, never headers.
local SEND_FIRST, SEND_MIDDLE = 0x00, 0x01
local send_only = {
	[0x04] = true,	-- SEND Only
	[0x05] = true,	-- SEND Only with Immediate
	[0x17] = true,	-- SEND Only with Invalidate
}
local send_last = {
	[0x02] = true,	-- SEND Last
	[0x03] = true,	-- SEND Last with Immediate
	[0x16] = true,	-- SEND Last with Invalidate
}

-- A cursor over the header. take() throws `short` when the bytes run
-- out, which dissect() catches: the item is marked and decoding stops.
local short = {}

local Cur = {}
Cur.__index = Cur

local function cursor(tvb)
	return setmetatable({ tvb = tvb, off = 0, len = tvb:len() }, Cur)
end

function Cur:left()
	return self.len - self.off
end

-- The range of the next @n bytes, or throw after marking @tree
function Cur:take(tree, n, what)
	if self:left() < n then
		tree:add_proto_expert_info(ex.truncated,
			string.format("Header truncated: %s needs %d bytes, %d left",
				what, n, self:left()))
		error(short)
	end
	local r = self.tvb(self.off, n)
	self.off = self.off + n
	return r
end

-- Add one 32-bit word as @field; return its value and tree item
function Cur:word(tree, field, what)
	local r = self:take(tree, 4, what)
	return r:uint(), tree:add(field, r)
end

function Cur:peek(at)
	return self.tvb(at, 4):uint()
end

-- An optional-data discriminator: true if an item follows
function Cur:present(tree, what)
	local v, ti = self:word(tree, hf.present, what)
	if v ~= 0 and v ~= 1 then
		ti:add_proto_expert_info(ex.bad_bool)
		error(short)
	end
	return v == 1
end

-- A plain segment (RFC 8166 §3.4.3) into @st; returns its handle
function Cur:segment(st, hdr)
	local r = self:take(st, 16, "segment")
	local handle, length = r(0, 4):uint(), r(4, 4):uint()
	st:add(hf.handle, r(0, 4))
	st:add(hf.length, r(4, 4))
	st:add(hf.offset, r(8, 8))
	hdr.handles[#hdr.handles + 1] = handle
	return handle, length, r(8, 8):uint64()
end

local function seg_text(handle, length, offset)
	return string.format("handle 0x%08x length %u offset 0x%s", handle,
		length, offset:tohex())
end

local function plural(n, what)
	return string.format("%u %s%s", n, what, n == 1 and "" or "s")
end

-- The Read list (RFC 8166 §4.3.1)
local function read_list(c, tree, hdr)
	local start = c.off
	local lt = tree:add(hf.reads, c.tvb(start, 0))
	local nsegs, positions, nchunks = 0, {}, 0
	local ok, err = pcall(function()
		while c:present(lt, "Read list discriminator") do
			local st = lt:add(hf.read, c.tvb(c.off, 0))
			local pos, pti = c:word(st, hf.position, "Read position")
			local h, l, o = c:segment(st, hdr)
			st:set_len(20)
			st:set_text(string.format("Read segment: position %u %s",
				pos, seg_text(h, l, o)))
			if pos % 4 ~= 0 then
				pti:add_proto_expert_info(ex.position)
			end
			if not positions[pos] then
				positions[pos] = true
				nchunks = nchunks + 1
			end
			if pos == 0 then
				hdr.pz_read = true
			end
			nsegs = nsegs + 1
		end
	end)
	lt:set_len(c.off - start)
	lt:set_text(string.format("Read list: %s, %s",
		plural(nsegs, "segment"), plural(nchunks, "chunk")))
	lt:add(hf.reads_count, nsegs):set_generated()
	lt:add(hf.reads_chunks, nchunks):set_generated()
	hdr.nr_reads = nsegs
	if not ok then
		error(err)
	end
end

-- A counted array of segments: a Write chunk or the Reply chunk
local function write_chunk(c, ct, hdr, countf, what)
	local n = c:word(ct, countf, what .. " segment count")
	local length = 0
	for i = 1, n do
		local st = ct:add(hf.segment, c.tvb(c.off, 0))
		local h, l, o = c:segment(st, hdr)
		st:set_len(16)
		st:set_text(string.format("Segment %u: %s", i,
			seg_text(h, l, o)))
		length = length + l
	end
	return n, length
end

local function write_list(c, tree, hdr)
	local start = c.off
	local lt = tree:add(hf.writes, c.tvb(start, 0))
	local nchunks = 0
	local ok, err = pcall(function()
		while c:present(lt, "Write list discriminator") do
			local cstart = c.off
			local ct = lt:add(hf.write, c.tvb(cstart, 0))
			nchunks = nchunks + 1
			local cok, cerr = pcall(function()
				local n, len = write_chunk(c, ct, hdr,
					hf.write_segcount, "Write chunk")
				ct:set_text(string.format(
					"Write chunk %u: %s, %u bytes",
					nchunks, plural(n, "segment"), len))
			end)
			ct:set_len(c.off - cstart)
			if not cok then
				error(cerr)
			end
		end
	end)
	lt:set_len(c.off - start)
	lt:set_text("Write list: " .. plural(nchunks, "chunk"))
	lt:add(hf.writes_count, nchunks):set_generated()
	hdr.nr_writes = nchunks
	if not ok then
		error(err)
	end
end

local function reply_chunk(c, tree, hdr)
	local start = c.off
	local ct = tree:add(hf.reply, c.tvb(start, 0))
	local text = "Reply chunk: none"
	local ok, err = pcall(function()
		if c:present(ct, "Reply chunk discriminator") then
			hdr.has_reply = true
			text = "Reply chunk: (truncated)"
			local n, len = write_chunk(c, ct, hdr,
				hf.reply_segcount, "Reply chunk")
			text = string.format("Reply chunk: %s, %u bytes",
				plural(n, "segment"), len)
		end
	end)
	ct:set_len(c.off - start)
	ct:set_text(text)
	if not ok then
		error(err)
	end
end

local function flags_word(c, tree, hdr)
	local r = c:take(tree, 4, "rdma_flags")
	local v = r:uint()
	local ft = tree:add(hf.flags, r)
	ft:add(hf.response, r)
	local rt = ft:add(hf.reserved, r)
	hdr.flags = v
	hdr.response = bit32.band(v, F_RESPONSE) ~= 0
	if bit32.band(v, 0xfffffffe) ~= 0 then
		rt:add_proto_expert_info(ex.flags)
	end
	if hdr.response then
		ft:append_text(" (RESPONSE)")
	end
end

-- RDMA_MSG, RDMA_NOMSG (and RDMA_MSGP's lists), RDMA2_MSG, RDMA2_NOMSG
local function chunk_lists(c, tree, hdr)
	if hdr.vers == VERS_2 then
		local inv, iti = c:word(tree, hf.inv_handle, "rdma_inv_handle")
		hdr.inv_handle = inv
		hdr.inv_item = iti
	end
	if c:left() >= 4 and c:peek(c.off) ~= 0 and hdr.response then
		hdr.reply_reads = true
	end
	read_list(c, tree, hdr)
	write_list(c, tree, hdr)
	reply_chunk(c, tree, hdr)
end

-- Rules a well-formed MSG / NOMSG header must still keep
local function check_lists(tree, hdr)
	if hdr.reply_reads then
		tree:add_proto_expert_info(ex.reply_reads)
	end
	-- draft v2 §3.3: a Call's non-zero handle names one of its segments
	if hdr.inv_handle and hdr.inv_handle ~= 0 and not hdr.response then
		local found = false
		for _, h in ipairs(hdr.handles) do
			found = found or h == hdr.inv_handle
		end
		if not found then
			hdr.inv_item:add_proto_expert_info(ex.inv_handle)
		end
	end
	if hdr.htype ~= NOMSG then
		return
	end
	if hdr.nr_reads == 0 and hdr.nr_writes == 0 and not hdr.has_reply then
		tree:add_proto_expert_info(ex.nomsg_empty)
		return
	end
	local ok
	if hdr.vers == VERS_1 then
		ok = hdr.pz_read or hdr.has_reply
	elseif hdr.response then
		ok = hdr.has_reply
	else
		ok = hdr.pz_read
	end
	if not ok then
		tree:add_proto_expert_info(ex.nomsg_chunk)
	end
end

-- The RPC message after an RDMA_MSG / RDMA2_MSG header
local function rpc_message(c, tvb, pinfo, tree, root, hdr)
	local n = c:left()
	tree:add(hf.rpc_len, n):set_generated()
	if n < 4 then
		tree:add_proto_expert_info(ex.no_payload)
		return
	end
	local rxid = c:peek(c.off)
	if hdr.vers == VERS_1 and rxid ~= hdr.xid then
		tree:add_proto_expert_info(ex.xid_mismatch)
	end
	if hdr.vers == VERS_2 and n >= 8 then
		local mtype = c:peek(c.off + 4)
		if mtype <= 1 and (mtype == 1) ~= hdr.response then
			tree:add_proto_expert_info(ex.msg_type)
		end
	end
	if not rpc_dissector then
		return
	end
	-- The RPC dissector throws on a short or malformed message;
	-- Dissector:call() turns that into a Lua error, after it has shown
	-- the exception in the tree.
	local ok = pcall(function()
		rpc_dissector:call(tvb(c.off):tvb(), pinfo, root)
	end)
	if not ok then
		tree:add_proto_expert_info(ex.rpc_malformed)
	end
end

local function error_body(c, tree, hdr)
	local code, eti = c:word(tree, hf.err, "rdma_err")
	local names = hdr.vers == VERS_2 and v2_errs or v1_errs
	eti:set_text(string.format("Error: %s (%u)",
		named(names, code), code))
	hdr.info = hdr.info .. " " .. named(names, code)
	if code == ERR_VERS then
		c:word(tree, hf.vers_low, "rdma_vers_low")
		c:word(tree, hf.vers_high, "rdma_vers_high")
	elseif code == ERR_BAD_XDR then
		return
	elseif hdr.vers ~= VERS_2 then
		eti:add_proto_expert_info(ex.bad_error)
	elseif code == ERR_READ_CHUNKS or code == ERR_WRITE_CHUNKS then
		c:word(tree, hf.max_chunks, "rdma_max_chunks")
	elseif code == ERR_SEGMENTS then
		c:word(tree, hf.max_segments, "rdma_max_segments")
	elseif code == ERR_WRITE_RESOURCE then
		c:word(tree, hf.chunk_index, "rdma_chunk_index")
		c:word(tree, hf.length_needed, "rdma_length_needed")
	elseif code == ERR_REPLY_RESOURCE then
		c:word(tree, hf.length_needed, "rdma_length_needed")
	elseif not v2_errs[code] then
		eti:add_proto_expert_info(ex.unknown_error)
	end
end

-- RFC 8166 §4.5's version-independent ERR_VERS with rdma_vers 2: seven
-- words, no rdma_flags. Read as RDMA2_ERROR its arm does not fit; the
-- codec (rpcrdma2_decode()) accepts it on the same terms.
local function is_err_vers_v1_layout(tvb)
	if tvb:len() ~= V1_MIN_HDR or tvb(16, 4):uint() ~= ERR_VERS then
		return false
	end
	local low, high = tvb(20, 4):uint(), tvb(24, 4):uint()
	if low == 0 or low > high then
		return false
	end
	-- the v2 reading: rdma_err is word 5 (low), its arm from word 6
	local words = ({ [ERR_VERS] = 2, [ERR_READ_CHUNKS] = 1,
		[ERR_WRITE_CHUNKS] = 1, [ERR_SEGMENTS] = 1,
		[ERR_WRITE_RESOURCE] = 2, [ERR_REPLY_RESOURCE] = 1 })[low] or 0
	return words > 1
end

-- One rpcrdma2_propval (draft v2 §4.1)
local function property(c, tree, hdr, i)
	local start = c.off
	local pt = tree:add(hf.prop, c.tvb(start, 0))
	local ok, err = pcall(function()
		local id = c:word(pt, hf.prop_id, "rdma_which")
		local dlen = c:word(pt, hf.prop_length, "rdma_data length")
		local pad = (4 - dlen % 4) % 4
		local label = string.format("Property %u: %s", i,
			named(propids, id))
		pt:set_text(label)
		local data = c:take(pt, dlen + pad, "rdma_data")
		if dlen > 0 then
			pt:add(hf.prop_data, data(0, dlen))
		end
		if not propids[id] then
			pt:add(hf.prop_unknown, true):set_generated()
			pt:add_proto_expert_info(ex.unknown_prop)
			pt:set_text(label .. ", " .. plural(dlen, "byte") ..
				" of data (skipped)")
			return
		end
		if dlen == 0 then
			pt:add(hf.prop_default, true):set_generated()
			pt:set_text(label .. ": default")
			return
		end
		local v = dlen == 4 and data(0, 4):uint()
		if id == PROPID_RBSIZ and v then
			pt:add(hf.rbsiz, data(0, 4))
			pt:set_text(string.format("%s: %u", label, v))
		elseif id == PROPID_BRS and v and v <= RVREQSUP_GENL then
			pt:add(hf.brs, data(0, 4))
			pt:set_text(label .. ": " .. rvreqsup[v])
		else
			pt:add_proto_expert_info(ex.propval)
		end
	end)
	pt:set_len(c.off - start)
	if not ok then
		error(err)
	end
end

local function connprop_body(c, tree, hdr)
	local n, nti = c:word(tree, hf.props_count, "propset count")
	-- each propval is at least 8 bytes: a count no message could
	-- hold is shown as truncation before anything else
	if n > c:left() / 8 then
		nti:add_proto_expert_info(ex.truncated,
			string.format("Header truncated: %u properties need " ..
				"at least %u bytes, %d left", n, 8 * n, c:left()))
		error(short)
	end
	for i = 1, n do
		property(c, tree, hdr, i)
	end
end

-- Everything after the four fixed words
local function body(c, tvb, pinfo, tree, root, hdr)
	if hdr.vers == VERS_1 then
		if hdr.htype == ERROR then
			error_body(c, tree, hdr)
			return
		end
		if not v1_procs[hdr.htype] then
			tree:add_proto_expert_info(ex.unknown_htype)
			if c:left() > 0 then
				tree:add(hf.body, tvb(c.off))
			end
			return
		end
		if tvb:len() < V1_MIN_HDR then
			tree:add_proto_expert_info(ex.short)
		end
		if hdr.htype == DONE then
			tree:add_proto_expert_info(ex.not_used)
			return
		end
		if hdr.htype == MSGP then
			tree:add_proto_expert_info(ex.not_used)
			c:word(tree, hf.align, "rdma_align")
			c:word(tree, hf.thresh, "rdma_thresh")
		end
		chunk_lists(c, tree, hdr)
		tree:add(hf.hdr_len, c.off):set_generated()
		check_lists(tree, hdr)
		if hdr.htype == MSG then
			rpc_message(c, tvb, pinfo, tree, root, hdr)
		elseif hdr.htype == NOMSG then
			tree:add_proto_expert_info(ex.rpc_external)
		elseif c:left() > 0 then
			tree:add(hf.body, tvb(c.off))
		end
		return
	end

	if hdr.htype == ERROR and is_err_vers_v1_layout(tvb) then
		tree:add(hf.v1_layout, true):set_generated()
		tree:add_proto_expert_info(ex.v1_layout)
		hdr.v1_layout = true
		error_body(c, tree, hdr)
		return
	end
	flags_word(c, tree, hdr)
	if hdr.htype == MSG or hdr.htype == NOMSG then
		chunk_lists(c, tree, hdr)
		tree:add(hf.hdr_len, c.off):set_generated()
		check_lists(tree, hdr)
		if hdr.htype == MSG then
			rpc_message(c, tvb, pinfo, tree, root, hdr)
		else
			tree:add_proto_expert_info(ex.rpc_external)
		end
	elseif hdr.htype == ERROR then
		if not hdr.response then
			tree:add_proto_expert_info(ex.not_response)
		end
		error_body(c, tree, hdr)
	elseif hdr.htype == CONNPROP then
		connprop_body(c, tree, hdr)
	else
		tree:add_proto_expert_info(ex.unknown_htype)
		if c:left() > 0 then
			tree:add(hf.body, tvb(c.off))
		end
	end
end

-- The four fixed words, then the rest of the header and the RPC message
local function header(c, tvb, pinfo, tree, root, hdr, send)
	hdr.xid = c:word(tree, hf.xid, "rdma_xid")
	hdr.vers = c:word(tree, hf.vers, "rdma_vers")
	hdr.credits = c:word(tree, hf.credits, "rdma_credit")
	local htype, hti = c:word(tree, hf.htype, "rdma_htype")
	hdr.htype = htype
	local names = hdr.vers == VERS_2 and v2_htypes or v1_procs
	local hname = named(names, htype, "type")
	hti:set_text(string.format("%s: %s (%u)",
		hdr.vers == VERS_2 and "Header type" or "Procedure", hname,
		htype))
	hdr.info = string.format("%s XID 0x%08x", hname, hdr.xid)
	tree:set_text(string.format("RPC-over-RDMA %s, %s",
		vers_names[hdr.vers] or "(unknown version)", hdr.info))

	pinfo.cols.protocol = hdr.vers == VERS_2 and "RPC/RDMA2" or
		"RPC/RDMA"
	if send then
		local ft = tree:add(hf.fragment_count, #send.frames)
		ft:set_generated()
		ft:append_text(string.format(" (%u bytes)", tvb:len()))
		for _, f in ipairs(send.frames) do
			ft:add(hf.fragment, f):set_generated()
		end
		tree:add(hf.reassembled_length, tvb:len()):set_generated()
	end
	if tvb:len() % 4 ~= 0 then
		tree:add_proto_expert_info(ex.unaligned)
	end
	body(c, tvb, pinfo, tree, root, hdr)
end

-- Dissect the message in @tvb; @send, for a message that came in more
-- than one packet, lists their frame numbers.
local function dissect(tvb, pinfo, root, send)
	local tree = root:add(rpcrdma2, tvb())
	local hdr = { handles = {}, nr_reads = 0, nr_writes = 0, info = "" }
	local ok, err = pcall(header, cursor(tvb), tvb, pinfo, tree, root,
		hdr, send)

	if hdr.response then
		hdr.info = hdr.info .. " RESPONSE"
	end
	pinfo.cols.info:prepend(hdr.info .. " ")
	if not ok and err ~= short then
		tree:add_proto_expert_info(ex.internal,
			"rpcrdma2.lua internal error: " .. tostring(err))
	end
	return tvb:len()
end

local function last(field)
	local all = { field() }
	return all[#all]
end

-- Whether @tvb starts with a header: a version we know and a header type
-- of that version; a Version 2 header of an unknown type needs its
-- rdma_flags reserved bits clear.
local function looks_like_header(tvb)
	if tvb:len() < 16 then
		return false
	end
	local vers, htype = tvb(4, 4):uint(), tvb(12, 4):uint()
	if vers == VERS_1 then
		return v1_procs[htype] ~= nil
	elseif vers == VERS_2 then
		return v2_htypes[htype] ~= nil or (tvb:len() >= 20 and
			bit32.band(tvb(16, 4):uint(), 0xfffffffe) == 0)
	end
	return false
end

-- A message larger than the path MTU comes as SEND First, Middle...,
-- Last. They are put together in frame order: the packets of one QP in
-- one direction follow each other by PSN. @sends holds the message in
-- progress per direction; @parts, by frame number, which message a
-- packet belongs to and where in it. The message is dissected at its
-- last packet.
--
-- The opcode and PSN come from the infiniband dissector's fields, which
-- a pass without a protocol tree (tshark -2's first) does not fill in:
-- each packet is taken in the first pass that has them, @collected.
local sends, parts, collected = {}, {}, {}

function rpcrdma2.init()
	sends, parts, collected = {}, {}, {}
end

-- The first look at a SEND First, Middle or Last packet
local function send_collect(tvb, pinfo, op)
	local qp, psn = last(f_bth_destqp), last(f_bth_psn)
	if not qp or not psn then
		return
	end
	local key = string.format("%s>%s/%u", tostring(pinfo.src),
		tostring(pinfo.dst), qp.value)
	local msg = sends[key]
	if op == SEND_FIRST then
		msg = nil
		if looks_like_header(tvb) then
			msg = { bytes = ByteArray.new(), frames = {} }
		end
	elseif msg and psn.value ~= msg.psn then
		-- a packet of it was not captured
		msg = nil
	end
	sends[key] = msg
	if not msg then
		return
	end
	msg.bytes:append(tvb:bytes())
	msg.frames[#msg.frames + 1] = pinfo.number
	msg.psn = (psn.value + 1) % 0x1000000
	parts[pinfo.number] = { msg = msg, index = #msg.frames }
	if send_last[op] then
		msg.last = pinfo.number
		sends[key] = nil
	end
end

local function send_packet(tvb, pinfo, root, op)
	if not collected[pinfo.number] then
		collected[pinfo.number] = true
		send_collect(tvb, pinfo, op)
	end
	local part = parts[pinfo.number]
	if not part then
		return false
	end
	local msg = part.msg
	if msg.last == pinfo.number then
		dissect(msg.bytes:tvb("Reassembled RPC-over-RDMA message"), pinfo,
			root, msg)
		return true
	end
	local tree = root:add(rpcrdma2, tvb())
	tree:set_text(string.format("RPC-over-RDMA, packet %u of a longer " ..
		"message", part.index))
	if msg.last then
		tree:add(hf.reassembled_in, msg.last):set_generated()
	end
	pinfo.cols.protocol = "RPC/RDMA"
	pinfo.cols.info:prepend(string.format("Send packet %u of a longer " ..
		"message ", part.index))
	return true
end

-- The infiniband heuristic table hands us the payload of every packet it
-- has no conversation for: take a Send that is, or begins, an
-- RPC-over-RDMA message, and the rest of a message that needs more than
-- one packet.
local function heuristic(tvb, pinfo, root)
	local op, pad = last(f_bth_opcode), last(f_bth_padcnt)
	-- the infiniband dissector leaves the pad bytes (BTH PadCnt) in the
	-- payload: the message ends before them
	if pad and pad.value > 0 and pad.value <= tvb:len() then
		tvb = tvb(0, tvb:len() - pad.value):tvb()
	end
	if op and not send_only[op.value] then
		if op.value == SEND_FIRST or op.value == SEND_MIDDLE or
		    send_last[op.value] then
			return send_packet(tvb, pinfo, root, op.value)
		end
		return false
	end
	if not looks_like_header(tvb) then
		return false
	end
	dissect(tvb, pinfo, root)
	return true
end

rpcrdma2:register_heuristic("infiniband.payload", heuristic)

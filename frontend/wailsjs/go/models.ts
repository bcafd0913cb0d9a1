export namespace agent {
	
	export class ApprovalRequest {
	    RunID: string;
	    SessionID: string;
	    Call: chat.ToolCall;
	    Server: string;
	    ReadOnlyHint: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ApprovalRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.RunID = source["RunID"];
	        this.SessionID = source["SessionID"];
	        this.Call = this.convertValues(source["Call"], chat.ToolCall);
	        this.Server = source["Server"];
	        this.ReadOnlyHint = source["ReadOnlyHint"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace app {
	
	export class AccountDTO {
	    provider: string;
	    method: string;
	    email?: string;
	    plan?: string;
	    accountId?: string;
	    project?: string;
	    expiresAt?: number;
	    keyHint?: string;
	
	    static createFrom(source: any = {}) {
	        return new AccountDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.method = source["method"];
	        this.email = source["email"];
	        this.plan = source["plan"];
	        this.accountId = source["accountId"];
	        this.project = source["project"];
	        this.expiresAt = source["expiresAt"];
	        this.keyHint = source["keyHint"];
	    }
	}
	export class AttachmentDTO {
	    type: string;
	    mimeType?: string;
	    data?: string;
	    uri?: string;
	    text?: string;
	    name?: string;
	
	    static createFrom(source: any = {}) {
	        return new AttachmentDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.type = source["type"];
	        this.mimeType = source["mimeType"];
	        this.data = source["data"];
	        this.uri = source["uri"];
	        this.text = source["text"];
	        this.name = source["name"];
	    }
	}
	export class BranchDTO {
	    index: number;
	    count: number;
	    prev: number;
	    next: number;
	
	    static createFrom(source: any = {}) {
	        return new BranchDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.index = source["index"];
	        this.count = source["count"];
	        this.prev = source["prev"];
	        this.next = source["next"];
	    }
	}
	export class OAuthDTO {
	    clientId: string;
	    hasClientSecret: boolean;
	    scopes: string[];
	
	    static createFrom(source: any = {}) {
	        return new OAuthDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.clientId = source["clientId"];
	        this.hasClientSecret = source["hasClientSecret"];
	        this.scopes = source["scopes"];
	    }
	}
	export class KeyValueDTO {
	    key: string;
	    hint: string;
	
	    static createFrom(source: any = {}) {
	        return new KeyValueDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.hint = source["hint"];
	    }
	}
	export class ConnectorDTO {
	    id: string;
	    name: string;
	    transport: string;
	    enabled: boolean;
	    command?: string;
	    args: string[];
	    env: KeyValueDTO[];
	    cwd?: string;
	    url?: string;
	    headers: KeyValueDTO[];
	    oauth?: OAuthDTO;
	    trustReadOnlyHints: boolean;
	    newChats: boolean;
	    state: string;
	    toolCount: number;
	    error?: string;
	    stderrTail: string[];
	    needsSignIn: boolean;
	    nextRetry?: number;
	    restarts?: number;
	    server?: string;
	    protocol?: string;
	    since?: number;
	    createdAt?: number;
	    version: number;
	
	    static createFrom(source: any = {}) {
	        return new ConnectorDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.transport = source["transport"];
	        this.enabled = source["enabled"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = this.convertValues(source["env"], KeyValueDTO);
	        this.cwd = source["cwd"];
	        this.url = source["url"];
	        this.headers = this.convertValues(source["headers"], KeyValueDTO);
	        this.oauth = this.convertValues(source["oauth"], OAuthDTO);
	        this.trustReadOnlyHints = source["trustReadOnlyHints"];
	        this.newChats = source["newChats"];
	        this.state = source["state"];
	        this.toolCount = source["toolCount"];
	        this.error = source["error"];
	        this.stderrTail = source["stderrTail"];
	        this.needsSignIn = source["needsSignIn"];
	        this.nextRetry = source["nextRetry"];
	        this.restarts = source["restarts"];
	        this.server = source["server"];
	        this.protocol = source["protocol"];
	        this.since = source["since"];
	        this.createdAt = source["createdAt"];
	        this.version = source["version"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class OAuthInputDTO {
	    clientId?: string;
	    clientSecret?: string;
	    keepClientSecret?: boolean;
	    scopes?: string[];
	
	    static createFrom(source: any = {}) {
	        return new OAuthInputDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.clientId = source["clientId"];
	        this.clientSecret = source["clientSecret"];
	        this.keepClientSecret = source["keepClientSecret"];
	        this.scopes = source["scopes"];
	    }
	}
	export class KeyValueInputDTO {
	    key: string;
	    value: string;
	    keep?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new KeyValueInputDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.value = source["value"];
	        this.keep = source["keep"];
	    }
	}
	export class ConnectorInputDTO {
	    id?: string;
	    name: string;
	    transport: string;
	    command?: string;
	    args?: string[];
	    secretArgs?: number[];
	    env?: KeyValueInputDTO[];
	    cwd?: string;
	    url?: string;
	    headers?: KeyValueInputDTO[];
	    oauth?: OAuthInputDTO;
	    trustReadOnlyHints?: boolean;
	    newChats?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ConnectorInputDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.transport = source["transport"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.secretArgs = source["secretArgs"];
	        this.env = this.convertValues(source["env"], KeyValueInputDTO);
	        this.cwd = source["cwd"];
	        this.url = source["url"];
	        this.headers = this.convertValues(source["headers"], KeyValueInputDTO);
	        this.oauth = this.convertValues(source["oauth"], OAuthInputDTO);
	        this.trustReadOnlyHints = source["trustReadOnlyHints"];
	        this.newChats = source["newChats"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ErrorDTO {
	    kind: string;
	    message: string;
	    provider?: string;
	    reason?: string;
	    code?: string;
	    detail?: string;
	    retryAt?: number;
	
	    static createFrom(source: any = {}) {
	        return new ErrorDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.message = source["message"];
	        this.provider = source["provider"];
	        this.reason = source["reason"];
	        this.code = source["code"];
	        this.detail = source["detail"];
	        this.retryAt = source["retryAt"];
	    }
	}
	export class ImportEntryDTO {
	    name: string;
	    imported: boolean;
	    connectorId?: string;
	    reason?: string;
	    notes: string[];
	    ignored: string[];
	
	    static createFrom(source: any = {}) {
	        return new ImportEntryDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.imported = source["imported"];
	        this.connectorId = source["connectorId"];
	        this.reason = source["reason"];
	        this.notes = source["notes"];
	        this.ignored = source["ignored"];
	    }
	}
	export class ImportReportDTO {
	    summary: string;
	    imported: number;
	    entries: ImportEntryDTO[];
	
	    static createFrom(source: any = {}) {
	        return new ImportReportDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.summary = source["summary"];
	        this.imported = source["imported"];
	        this.entries = this.convertValues(source["entries"], ImportEntryDTO);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class KeychainDTO {
	    available: boolean;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new KeychainDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.available = source["available"];
	        this.message = source["message"];
	    }
	}
	export class LogLineDTO {
	    time: number;
	    source: string;
	    level?: string;
	    logger?: string;
	    text: string;
	
	    static createFrom(source: any = {}) {
	        return new LogLineDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.time = source["time"];
	        this.source = source["source"];
	        this.level = source["level"];
	        this.logger = source["logger"];
	        this.text = source["text"];
	    }
	}
	export class LoginDTO {
	    loginId: string;
	    provider: string;
	    authUrl: string;
	    manual: boolean;
	    browserError?: string;
	
	    static createFrom(source: any = {}) {
	        return new LoginDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.loginId = source["loginId"];
	        this.provider = source["provider"];
	        this.authUrl = source["authUrl"];
	        this.manual = source["manual"];
	        this.browserError = source["browserError"];
	    }
	}
	export class ToolResultDTO {
	    callId: string;
	    name: string;
	    successful: boolean;
	    data?: string;
	    error?: string;
	    truncated?: boolean;
	    size?: number;
	    durationMs?: number;
	    attachments?: AttachmentDTO[];
	    raw?: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolResultDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.callId = source["callId"];
	        this.name = source["name"];
	        this.successful = source["successful"];
	        this.data = source["data"];
	        this.error = source["error"];
	        this.truncated = source["truncated"];
	        this.size = source["size"];
	        this.durationMs = source["durationMs"];
	        this.attachments = this.convertValues(source["attachments"], AttachmentDTO);
	        this.raw = source["raw"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PartDTO {
	    type: string;
	    text?: string;
	    callId?: string;
	    name?: string;
	    server?: string;
	    arguments?: string;
	    result?: ToolResultDTO;
	    mimeType?: string;
	
	    static createFrom(source: any = {}) {
	        return new PartDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.type = source["type"];
	        this.text = source["text"];
	        this.callId = source["callId"];
	        this.name = source["name"];
	        this.server = source["server"];
	        this.arguments = source["arguments"];
	        this.result = this.convertValues(source["result"], ToolResultDTO);
	        this.mimeType = source["mimeType"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class MessageDTO {
	    id: string;
	    seq: number;
	    role: string;
	    status: string;
	    error?: string;
	    failure?: ErrorDTO;
	    parts: PartDTO[];
	    createdAt: number;
	    provider?: string;
	    model?: string;
	    runId?: string;
	    branch?: BranchDTO;
	
	    static createFrom(source: any = {}) {
	        return new MessageDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.seq = source["seq"];
	        this.role = source["role"];
	        this.status = source["status"];
	        this.error = source["error"];
	        this.failure = this.convertValues(source["failure"], ErrorDTO);
	        this.parts = this.convertValues(source["parts"], PartDTO);
	        this.createdAt = source["createdAt"];
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.runId = source["runId"];
	        this.branch = this.convertValues(source["branch"], BranchDTO);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class MessagePageDTO {
	    messages: MessageDTO[];
	    earlierBefore: number;
	
	    static createFrom(source: any = {}) {
	        return new MessagePageDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.messages = this.convertValues(source["messages"], MessageDTO);
	        this.earlierBefore = source["earlierBefore"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ModelChoiceDTO {
	    provider: string;
	    model: string;
	
	    static createFrom(source: any = {}) {
	        return new ModelChoiceDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.model = source["model"];
	    }
	}
	export class ModelDTO {
	    id: string;
	    name: string;
	    contextWindow?: number;
	    maxOutputTokens?: number;
	    reasoning?: boolean;
	    preview?: boolean;
	    unavailable?: string;
	
	    static createFrom(source: any = {}) {
	        return new ModelDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.contextWindow = source["contextWindow"];
	        this.maxOutputTokens = source["maxOutputTokens"];
	        this.reasoning = source["reasoning"];
	        this.preview = source["preview"];
	        this.unavailable = source["unavailable"];
	    }
	}
	
	
	
	export class ProviderModelsDTO {
	    provider: string;
	    displayName: string;
	    available: boolean;
	    models: ModelDTO[];
	    source: string;
	    fetchedAt?: number;
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new ProviderModelsDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.displayName = source["displayName"];
	        this.available = source["available"];
	        this.models = this.convertValues(source["models"], ModelDTO);
	        this.source = source["source"];
	        this.fetchedAt = source["fetchedAt"];
	        this.error = source["error"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SearchHitDTO {
	    sessionId: string;
	    title: string;
	    snippet: string;
	    seq: number;
	    updatedAt: number;
	
	    static createFrom(source: any = {}) {
	        return new SearchHitDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.title = source["title"];
	        this.snippet = source["snippet"];
	        this.seq = source["seq"];
	        this.updatedAt = source["updatedAt"];
	    }
	}
	export class SendResultDTO {
	    runId: string;
	    message: MessageDTO;
	
	    static createFrom(source: any = {}) {
	        return new SendResultDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.runId = source["runId"];
	        this.message = this.convertValues(source["message"], MessageDTO);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SessionToolDTO {
	    canonical: string;
	    name: string;
	    title?: string;
	    description?: string;
	    enabled: boolean;
	    readOnly: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SessionToolDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.canonical = source["canonical"];
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.enabled = source["enabled"];
	        this.readOnly = source["readOnly"];
	    }
	}
	export class SessionConnectorDTO {
	    id: string;
	    name: string;
	    state: string;
	    toolCount: number;
	    error?: string;
	    available: boolean;
	    enabledInSession: boolean;
	    tools: SessionToolDTO[];
	
	    static createFrom(source: any = {}) {
	        return new SessionConnectorDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.state = source["state"];
	        this.toolCount = source["toolCount"];
	        this.error = source["error"];
	        this.available = source["available"];
	        this.enabledInSession = source["enabledInSession"];
	        this.tools = this.convertValues(source["tools"], SessionToolDTO);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SessionDTO {
	    id: string;
	    title: string;
	    provider: string;
	    model: string;
	    createdAt: number;
	    updatedAt: number;
	    toolsRevision: number;
	
	    static createFrom(source: any = {}) {
	        return new SessionDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.createdAt = source["createdAt"];
	        this.updatedAt = source["updatedAt"];
	        this.toolsRevision = source["toolsRevision"];
	    }
	}
	
	export class SessionToolsDTO {
	    sessionId: string;
	    revision: number;
	    connectors: SessionConnectorDTO[];
	    roots: string[];
	
	    static createFrom(source: any = {}) {
	        return new SessionToolsDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.revision = source["revision"];
	        this.connectors = this.convertValues(source["connectors"], SessionConnectorDTO);
	        this.roots = source["roots"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SessionViewDTO {
	    session: SessionDTO;
	    messages: MessageDTO[];
	    earlierBefore: number;
	
	    static createFrom(source: any = {}) {
	        return new SessionViewDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session = this.convertValues(source["session"], SessionDTO);
	        this.messages = this.convertValues(source["messages"], MessageDTO);
	        this.earlierBefore = source["earlierBefore"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class StatusDTO {
	    version: string;
	    dataDir: string;
	    dataFile: string;
	    storeError?: ErrorDTO;
	    lastSessionId: string;
	
	    static createFrom(source: any = {}) {
	        return new StatusDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.dataDir = source["dataDir"];
	        this.dataFile = source["dataFile"];
	        this.storeError = this.convertValues(source["storeError"], ErrorDTO);
	        this.lastSessionId = source["lastSessionId"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class TestToolDTO {
	    name: string;
	    title?: string;
	    description?: string;
	    readOnly: boolean;
	
	    static createFrom(source: any = {}) {
	        return new TestToolDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.readOnly = source["readOnly"];
	    }
	}
	export class TestResultDTO {
	    ok: boolean;
	    state: string;
	    tools: TestToolDTO[];
	    error?: string;
	    stderrTail: string[];
	    needsSignIn: boolean;
	    server?: string;
	    protocol?: string;
	    durationMs: number;
	
	    static createFrom(source: any = {}) {
	        return new TestResultDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.state = source["state"];
	        this.tools = this.convertValues(source["tools"], TestToolDTO);
	        this.error = source["error"];
	        this.stderrTail = source["stderrTail"];
	        this.needsSignIn = source["needsSignIn"];
	        this.server = source["server"];
	        this.protocol = source["protocol"];
	        this.durationMs = source["durationMs"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	

}

export namespace chat {
	
	export class ToolCall {
	    id: string;
	    name: string;
	    arguments?: number[];
	    invalidArguments?: string;
	    providerIds?: Record<string, string>;
	    providerData?: Record<string, Array<number>>;
	
	    static createFrom(source: any = {}) {
	        return new ToolCall(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.arguments = source["arguments"];
	        this.invalidArguments = source["invalidArguments"];
	        this.providerIds = source["providerIds"];
	        this.providerData = source["providerData"];
	    }
	}

}


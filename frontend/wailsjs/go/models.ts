export namespace app {
	
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
	export class ErrorDTO {
	    kind: string;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new ErrorDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.message = source["message"];
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
	export class ToolResultDTO {
	    callId: string;
	    name: string;
	    successful: boolean;
	    data?: string;
	    error?: string;
	    truncated?: boolean;
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
	    parts: PartDTO[];
	    createdAt: number;
	    provider?: string;
	    model?: string;
	    runId?: string;
	
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
	        this.parts = this.convertValues(source["parts"], PartDTO);
	        this.createdAt = source["createdAt"];
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.runId = source["runId"];
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
	export class ModelDTO {
	    id: string;
	    name: string;
	
	    static createFrom(source: any = {}) {
	        return new ModelDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	    }
	}
	
	export class ProviderModelsDTO {
	    provider: string;
	    displayName: string;
	    available: boolean;
	    models: ModelDTO[];
	
	    static createFrom(source: any = {}) {
	        return new ProviderModelsDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.displayName = source["displayName"];
	        this.available = source["available"];
	        this.models = this.convertValues(source["models"], ModelDTO);
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
	export class SessionViewDTO {
	    session: SessionDTO;
	    messages: MessageDTO[];
	
	    static createFrom(source: any = {}) {
	        return new SessionViewDTO(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.session = this.convertValues(source["session"], SessionDTO);
	        this.messages = this.convertValues(source["messages"], MessageDTO);
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

}


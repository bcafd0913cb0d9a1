// Trust you can see (issue 16): pure components, props in and callbacks out.
import './trust.css'

export {AlwaysAllow} from './AlwaysAllow'
export {AnnotationBadges} from './AnnotationBadges'
export {AuditLogView} from './AuditLogView'
export {ConnectorTrustDrawer, type GrantView, type TrustDrawerProps, type TrustTab} from './ConnectorTrustDrawer'
export {DefinitionDiff} from './DefinitionDiff'
export {JobCard} from './JobCard'
export {ChatPolicySelect, ConnectorPolicyPicker} from './PolicyPicker'
export {ProtocolBadge} from './ProtocolBadge'
export {TaskList} from './TaskList'
export {TrustIcon} from './TrustIcon'
export {UrlConsentDialog} from './UrlConsentDialog'

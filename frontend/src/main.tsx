import {StrictMode} from 'react'
import {createRoot} from 'react-dom/client'
import './styles/tokens.css'
import './styles/base.css'
import './styles/controls.css'
import './styles/shell.css'
import './styles/sidebar.css'
import './styles/chat.css'
import './styles/branches.css'
import './styles/markdown.css'
import './styles/tools.css'
import './styles/pages.css'
import './styles/context.css'
import './styles/overlays.css'
import App from './App'

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)

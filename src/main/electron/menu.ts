import { Menu, app, type MenuItemConstructorOptions } from 'electron'
import { openExternalSafely } from './security'

export interface MenuActions {
  openFolder(): void
  openDemo(): void
}

const isMac = process.platform === 'darwin'

/** The application menu: the usual roles plus Retrace's own commands. */
export function installMenu(actions: MenuActions): void {
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Open Workspace…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFolder() },
        { label: 'Open Demo Workspace', click: () => actions.openDemo() },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' }
      ]
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...(app.isPackaged ? [] : [{ type: 'separator' as const }, { role: 'reload' as const }, { role: 'toggleDevTools' as const }])
      ]
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [{ label: 'Retrace on GitHub', click: () => openExternalSafely('https://github.com/retrace-app/retrace') }]
    }
  ]
  Menu.setApplicationMenu(Menu.buildFromTemplate(template))
}

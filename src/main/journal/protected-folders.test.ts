import { mkdirSync, symlinkSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../testing/temp-runtime'
import { whyNotAWorkspace } from './protected-folders'

describe('folders that are never workspaces', () => {
  const cleanups: (() => void)[] = []
  afterEach(() => cleanups.splice(0).forEach((dispose) => dispose()))

  it('refuses the root, the home folder and what contains it, the home\'s settings folders and system folders, naming the folder', () => {
    const home = '/home/alice'
    const why = (folder: string) => whyNotAWorkspace(folder, { homes: [home], platform: 'linux' })
    expect(why('/')).toContain('the root of a disk')
    expect(why(home)).toMatch(/^Retrace does not use "\/home\/alice" as a workspace: it is your home folder\./)
    expect(why('/home/alice/')).toContain('your home folder')
    expect(why('/home/alice/projects/..')).toContain('your home folder')
    expect(why('/home')).toContain('contains your home folder')
    expect(why('/home/alice/.ssh')).toContain('settings')
    expect(why('/home/alice/.config/autostart/x')).toContain('settings')
    expect(why('/home/alice/.config')).toContain('settings')
    for (const system of ['/etc', '/etc/nginx', '/usr', '/usr/bin', '/usr/share/doc', '/var', '/var/lib/dpkg', '/proc/1', '/sys', '/boot', '/dev', '/lib64', '/sbin', '/opt', '/tmp', '/System/Library', '/Library/LaunchDaemons']) {
      expect(why(system), system).toContain('a system folder')
    }
    expect(why('/root')).not.toBeNull() // root's home, or a system folder for everyone else
    expect(why('relative/folder')).toContain('not an absolute folder path')
    // Projects, including in places shared with the system.
    for (const project of ['/home/alice/projects/app', '/home/alice/.config-backup', '/opt/app', '/var/www/site', '/usr/local/src/tool', '/tmp/scratch', '/srv/app', '/home/bob-project']) {
      expect(why(project), project).toBeNull()
    }
  })

  it('refuses this process\'s home folder without being told, and any folder that is a link to it', () => {
    expect(whyNotAWorkspace(homedir())).toContain('your home folder')
    const dir = tempDir('retrace-protected-')
    cleanups.push(() => dir.dispose())
    const fakeHome = join(dir.path, 'home')
    mkdirSync(fakeHome)
    symlinkSync(fakeHome, join(dir.path, 'innocent-name'))
    expect(whyNotAWorkspace(join(dir.path, 'innocent-name'), { homes: [fakeHome] })).toContain('your home folder')
    expect(whyNotAWorkspace(join(dir.path, 'innocent-name', 'project'), { homes: [fakeHome] })).toBeNull()
  })

  it('knows the folders of macOS (case-insensitive) and Windows', () => {
    expect(whyNotAWorkspace('/users/Alice', { homes: ['/Users/alice'], platform: 'darwin' })).toContain('your home folder')
    expect(whyNotAWorkspace('/Users/alice/Library/LaunchAgents', { homes: ['/Users/alice'], platform: 'darwin' })).toContain('settings')
    expect(whyNotAWorkspace('/ETC', { homes: ['/Users/alice'], platform: 'darwin' })).toContain('a system folder')
    const win = (folder: string) => whyNotAWorkspace(folder, { homes: ['C:\\Users\\alice'], platform: 'win32' })
    expect(win('C:\\')).toContain('the root of a disk')
    expect(win('c:\\users\\ALICE')).toContain('your home folder')
    expect(win('C:\\Users')).toContain('contains your home folder')
    expect(win('C:\\Windows\\System32')).toContain('a system folder')
    expect(win('D:\\Program Files\\Tool')).toContain('a system folder')
    expect(win('C:\\Users\\alice\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup')).toContain('settings')
    expect(win('C:\\Users\\alice\\code\\app')).toBeNull()
  })
})
